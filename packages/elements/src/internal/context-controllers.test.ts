import {
  ContextConsumer as LitConsumer,
  ContextProvider as LitProvider,
  createContext,
} from '@lit/context';
import { expect } from '@open-wc/testing';
import { LitElement } from 'lit';
import { ContextConsumer, ContextProvider } from './context-controllers.js';

const key = createContext<string | undefined>(Symbol('test'));

class Outer extends LitElement {
  readonly provider = new ContextProvider(this, { context: key });
}
class LitOuter extends LitElement {
  readonly provider = new LitProvider(this, { context: key });
}
class Inner extends LitElement {
  seen: (string | undefined)[] = [];
  updates = 0;
  readonly consumer = new ContextConsumer(this, {
    context: key,
    callback: (value) => this.seen.push(value),
  });
  override updated(): void {
    this.updates += 1;
  }
}
class LitInner extends LitElement {
  seen: (string | undefined)[] = [];
  readonly consumer = new LitConsumer(this, {
    context: key,
    subscribe: true,
    callback: (value) => this.seen.push(value),
  });
}
customElements.define('ctx-outer', Outer);
customElements.define('ctx-lit-outer', LitOuter);
customElements.define('ctx-inner', Inner);
customElements.define('ctx-lit-inner', LitInner);

/** `outer` with `inner` inside, in the document. */
function tree<O extends HTMLElement, I extends HTMLElement>(outer: string, inner: string) {
  const o = document.createElement(outer) as O;
  const i = document.createElement(inner) as I;
  o.append(i);
  document.body.append(o);
  return { o, i };
}

describe('context controllers (the protocol @lit/context speaks)', () => {
  afterEach(() => document.body.replaceChildren());

  it('gives the value to a consumer inside, again on each change, and renders it again', async () => {
    const { o, i } = tree<Outer, Inner>('ctx-outer', 'ctx-inner');
    o.provider.setValue('a');
    o.provider.setValue('a');
    o.provider.setValue('b');
    await i.updateComplete;
    expect(i.seen).to.deep.equal([undefined, 'a', 'b']);
    expect(i.updates).to.be.greaterThan(0);
  });

  it('stops calling a consumer that left, and starts again when it is back', () => {
    const { o, i } = tree<Outer, Inner>('ctx-outer', 'ctx-inner');
    o.provider.setValue('a');
    i.remove();
    o.provider.setValue('b');
    expect(i.seen).to.deep.equal([undefined, 'a']);
    o.append(i);
    expect(i.seen).to.deep.equal([undefined, 'a', 'b']);
    o.provider.setValue('c');
    expect(i.seen).to.deep.equal([undefined, 'a', 'b', 'c']);
  });

  it("answers @lit/context's own consumer (a merchant's element)", () => {
    const { o, i } = tree<Outer, LitInner>('ctx-outer', 'ctx-lit-inner');
    o.provider.setValue('a');
    i.remove();
    o.provider.setValue('b');
    expect(i.seen).to.deep.equal([undefined, 'a']);
  });

  it("is answered by @lit/context's own provider", () => {
    const { o, i } = tree<LitOuter, Inner>('ctx-lit-outer', 'ctx-inner');
    o.provider.setValue('a');
    expect(i.seen).to.deep.equal([undefined, 'a']);
    i.remove();
    o.provider.setValue('b');
    expect(i.seen).to.deep.equal([undefined, 'a']);
  });

  it('moves to the provider it is moved under, and the old one forgets it', () => {
    const { o, i } = tree<Outer, Inner>('ctx-outer', 'ctx-inner');
    o.provider.setValue('a');
    const other = document.createElement('ctx-outer') as Outer;
    document.body.append(other);
    other.provider.setValue('x');
    other.append(i);
    o.provider.setValue('b');
    expect(i.seen).to.deep.equal([undefined, 'a', 'x']);
  });

  it('leaves requests for another context alone', () => {
    const { o } = tree<Outer, Inner>('ctx-outer', 'ctx-inner');
    const other = createContext<string>(Symbol('other'));
    const seen: unknown[] = [];
    const request = Object.assign(new Event('context-request', { bubbles: true, composed: true }), {
      context: other,
      contextTarget: o.firstElementChild,
      callback: (value: unknown) => seen.push(value),
    });
    o.firstElementChild!.dispatchEvent(request);
    expect(seen).to.deep.equal([]);
  });
});
