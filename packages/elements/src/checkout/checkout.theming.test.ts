import { expect, fixture, html } from '@open-wc/testing';
import type { PgCardForm } from '../card-form/card-form.component.js';
import { backend, until } from '../test-helpers/backend.js';
import { field, typeInto } from '../test-helpers/input.js';
import './checkout.js';
import type { PgCheckout } from './checkout.component.js';

interface Manifest {
  modules: Array<{
    declarations?: Array<{
      tagName?: string;
      cssParts?: Array<{ name: string }>;
      cssProperties?: Array<{ name: string }>;
    }>;
  }>;
}

async function documented() {
  const manifest = (await (
    await fetch('/packages/elements/custom-elements.json')
  ).json()) as Manifest;
  const checkout = manifest.modules
    .flatMap((m) => m.declarations ?? [])
    .find((d) => d.tagName === 'pg-checkout')!;
  const readme = await (await fetch('/packages/elements/README.md')).text();
  const theming = readme.slice(readme.indexOf('## Theming'));
  return {
    parts: checkout.cssParts!.map((p) => p.name),
    properties: checkout.cssProperties!.map((p) => p.name),
    readmeProperties: [...new Set(theming.match(/--pg-[a-z-]+/g))],
  };
}

/** Every element of the drop-in's composed tree (through shadow roots). */
function deepAll(root: Element | ShadowRoot, out: Element[] = []): Element[] {
  for (const el of root.querySelectorAll('*')) {
    out.push(el);
    if (el.shadowRoot) deepAll(el.shadowRoot, out);
  }
  return out;
}

const MARK = 'rgb(1, 2, 3)';

/** Which of `parts` a `pg-checkout::part(x)` rule reaches right now, checked one part at a time. */
function reachable(el: PgCheckout, parts: string[], sheet: CSSStyleSheet): string[] {
  const hit: string[] = [];
  for (const part of parts) {
    sheet.replaceSync(`pg-checkout::part(${part}) { outline-color: ${MARK} !important; }`);
    // A renamed export ("status: form-status") is the inner part's name on the node itself.
    const names = new Set([part]);
    for (const host of deepAll(el.shadowRoot!))
      for (const pair of (host.getAttribute('exportparts') ?? '').split(',')) {
        const [inner, outer] = pair.split(':').map((x) => x.trim());
        if (outer === part && inner) names.add(inner);
      }
    const withPart = deepAll(el.shadowRoot!).filter((node) =>
      [...names].some((name) => node.part.contains(name)),
    );
    if (withPart.some((node) => getComputedStyle(node).outlineColor === MARK)) hit.push(part);
  }
  sheet.replaceSync('');
  return hit;
}

describe('<pg-checkout> theming', () => {
  it('every documented part reaches the inner form and 3-D Secure through pg-checkout::part()', async () => {
    const { parts } = await documented();
    expect(parts).to.include.members(['submit', 'input', 'label', 'error', 'brand', 'frame']);
    const { endpoint } = await backend();
    const wrapper = await fixture<HTMLDivElement>(
      html`<div style="width:360px">
        <pg-checkout
          endpoint=${endpoint}
          methods="card eft"
          saved-cards
          method-timeout="1500"
          poll-interval="100"
        ></pg-checkout>
      </div>`,
    );
    const el = wrapper.querySelector('pg-checkout') as PgCheckout;
    const sheet = new CSSStyleSheet();
    document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
    const seen = new Set<string>();
    const look = () => reachable(el, parts, sheet).forEach((p) => seen.add(p));
    try {
      const form = () => el.shadowRoot!.querySelector('pg-card-form') as PgCardForm;
      await until(() => form()?.shadowRoot?.querySelectorAll('input[type=radio]').length === 2);
      const newCard =
        form().shadowRoot!.querySelectorAll<HTMLInputElement>('input[type=radio]')[1]!;
      newCard.click();
      await form().updateComplete;
      typeInto(field(form(), 'number'), '4000000000003063');
      form().shadowRoot!.querySelector<HTMLButtonElement>('button[type=submit]')!.click();
      await form().updateComplete;
      look(); // idle with errors, brand, saved cards, methods
      typeInto(field(form(), 'holder'), 'Jo Soap');
      typeInto(field(form(), 'expiry'), `08${String(new Date().getFullYear() + 2).slice(2)}`);
      typeInto(field(form(), 'cvv'), '123');
      await form().updateComplete;
      form().shadowRoot!.querySelector<HTMLButtonElement>('button[type=submit]')!.click();
      const threeDS = () => el.shadowRoot!.querySelector('pg-3ds-v2')?.shadowRoot;
      await until(() => threeDS()?.querySelector('iframe[part=method-frame]') != null, 10000);
      look(); // method step
      await until(() => threeDS()?.querySelector('iframe[part=frame]') != null, 15000);
      look(); // challenge
      el.shadowRoot!.querySelector('pg-3ds-v2')!.cancel();
      // The cancel asks the fake middleware, then reads the state: as slow as the steps above when the
      // whole suite shares two cores (seen past 10 s in a full CI run), so it gets their time too.
      await until(() => el.status === 'failed', 15000);
      await el.updateComplete;
      look(); // retry
    } finally {
      document.adoptedStyleSheets = document.adoptedStyleSheets.filter((s) => s !== sheet);
    }
    expect([...seen].sort()).to.deep.equal([...parts].sort());
  });

  it('every documented custom property themes the drop-in', async () => {
    const { properties, readmeProperties } = await documented();
    expect(properties).to.include.members(readmeProperties);
    const { endpoint } = await backend();
    const wrapper = await fixture<HTMLDivElement>(
      html`<div style="width:360px"><pg-checkout endpoint=${endpoint}></pg-checkout></div>`,
    );
    const el = wrapper.querySelector('pg-checkout') as PgCheckout;
    await until(() =>
      /\d/.test(
        el.shadowRoot!.querySelector('pg-card-form')?.shadowRoot?.querySelector('button')
          ?.textContent ?? '',
      ),
    );
    const form = el.shadowRoot!.querySelector('pg-card-form') as PgCardForm;
    const inner = (selector: string) => form.shadowRoot!.querySelector<HTMLElement>(selector)!;
    const base = () => el.shadowRoot!.querySelector<HTMLElement>('[part=base]')!;
    const message = () => el.shadowRoot!.querySelector<HTMLElement>('[part=message]')!;
    // Unthemed, the drop-in paints no surface of its own: it sits on the merchant's.
    for (const appearance of ['light', 'dark'] as const) {
      el.appearance = appearance;
      await el.updateComplete;
      expect(getComputedStyle(base()).backgroundColor, appearance).to.equal('rgba(0, 0, 0, 0)');
      expect(getComputedStyle(inner('form')).backgroundColor, appearance).to.equal(
        'rgba(0, 0, 0, 0)',
      );
    }
    el.appearance = 'light';
    await el.updateComplete;
    const colour = 'rgb(10, 20, 30)';
    // Each property: the value to set, and where it must show.
    const checks: Record<string, [string, () => string, string?]> = {
      '--pg-color-background': [colour, () => getComputedStyle(inner('#number')).backgroundColor],
      '--pg-color-surface': [colour, () => getComputedStyle(message()).backgroundColor],
      '--pg-color-text': [colour, () => getComputedStyle(inner('label')).color],
      '--pg-color-text-muted': [colour, () => getComputedStyle(inner('.hint')).color],
      '--pg-color-border': [colour, () => getComputedStyle(inner('#number')).borderTopColor],
      '--pg-color-primary': [
        colour,
        () => getComputedStyle(inner('[part=submit]')).backgroundColor,
      ],
      '--pg-color-on-primary': [colour, () => getComputedStyle(inner('[part=submit]')).color],
      '--pg-color-error': [colour, () => getComputedStyle(inner('.error')).color],
      '--pg-color-success': [
        colour,
        () => {
          message().dataset.tone = 'success';
          const value = getComputedStyle(message()).color;
          message().dataset.tone = 'info';
          return value;
        },
      ],
      '--pg-focus-ring': [
        `0 0 0 5px ${colour}`,
        () => {
          inner('#number').focus();
          return getComputedStyle(inner('#number')).boxShadow;
        },
        `${colour} 0px 0px 0px 5px`,
      ],
      '--pg-radius': ['11px', () => getComputedStyle(inner('#number')).borderTopLeftRadius],
      '--pg-spacing': ['23px', () => getComputedStyle(inner('form')).rowGap],
      '--pg-font-family': ['monospace', () => getComputedStyle(inner('#number')).fontFamily],
      '--pg-font-size': ['20px', () => getComputedStyle(inner('label')).fontSize, '18.75px'],
      '--pg-max-width': ['300px', () => getComputedStyle(el).maxWidth],
      '--pg-padding': ['13px', () => getComputedStyle(base()).paddingTop],
      '--pg-challenge-full-height': [
        '321px',
        () => {
          const v2 = document.createElement('pg-3ds-v2');
          el.shadowRoot!.append(v2);
          const value = getComputedStyle(v2).getPropertyValue('--pg-challenge-full-height');
          v2.remove();
          return value.trim();
        },
      ],
    };
    expect(Object.keys(checks).sort()).to.deep.equal([...properties].sort());
    for (const [name, [value, read, expected]] of Object.entries(checks)) {
      const before = read();
      el.style.setProperty(name, value);
      await el.updateComplete;
      expect(read(), name).to.equal(expected ?? value);
      el.style.removeProperty(name);
      expect(read(), `${name} back to its default`).to.equal(before);
    }
  });
});
