import { expect } from '@open-wc/testing';
import { ClientErrorCode } from './api/client.js';
import * as events from './events.js';
import { codes as meanings } from './api/codes.js';

// The README's lists of events and `code`s are read from the code itself, so they cannot drift: a new
// event, a new code this package sends, or a new browser-facing code of the middleware fails here until
// it is documented (and, for codes, given a line in api/codes.ts; the compiler asks for the middleware's).

interface Manifest {
  modules: Array<{ declarations?: Array<{ tagName?: string; events?: Array<{ name: string }> }> }>;
}

const source = async (file: string) =>
  (await fetch(`/__pg-source?file=${encodeURIComponent(file)}`)).text();

async function readme() {
  const text = await source('packages/elements/README.md');
  const start = text.indexOf('### Events and codes');
  expect(start, 'README has an "Events and codes" section').to.be.above(-1);
  const end = text.indexOf('\n## ', start);
  return text.slice(start, end === -1 ? undefined : end);
}

const documented = (section: string, name: string) => section.includes(`\`${name}\``);

/** The event types this package creates: every `create…Event` of src/events. */
function eventTypes(): string[] {
  return Object.entries(events)
    .filter(([name, value]) => /^create\w+Event$/.test(name) && typeof value === 'function')
    .map(([, create]) => (create as (detail: unknown) => Event)({}).type);
}

/** Codes the elements' own sources put in a failure: `failure(reference, 'x', …)`, `failure('x')`, `code: 'x'`. */
async function codesInElements(): Promise<Set<string>> {
  const files = (await (await fetch('/__pg-source?dir=packages/elements/src')).json()) as string[];
  expect(files.length, 'the sources are listed').to.be.above(10);
  const codes = new Set<string>(Object.values(ClientErrorCode));
  for (const file of files) {
    const text = await source(file);
    for (const m of text.matchAll(/\bfailure\(\s*(?:\w+,\s*)?'([a-z0-9_]+)'/g)) codes.add(m[1]!);
    for (const m of text.matchAll(/\bcode:\s*'([a-z][a-z0-9_]*)'/g)) codes.add(m[1]!);
  }
  return codes;
}

/** The middleware's browser-facing codes (its webhook codes answer the gateway, never a browser). */
async function codesOfMiddleware(): Promise<string[]> {
  const text = await source('packages/protocol/src/browser/codes.ts');
  const union = /export type CheckoutErrorCode =([^;]+);/.exec(text)?.[1] ?? '';
  const codes = [...union.matchAll(/'([a-z0-9_]+)'/g)].map((m) => m[1]!);
  expect(codes.length, 'CheckoutErrorCode was read').to.be.above(10);
  return browserFacing(codes);
}

const browserFacing = (codes: string[]) => codes.filter((code) => !code.startsWith('webhook_'));

describe('README: events and codes', () => {
  it('documents every event the elements send, and the manifest agrees', async () => {
    const section = await readme();
    const types = eventTypes();
    expect(types).to.include.members(['pg-failed', 'pg-threeds-complete', 'pg-submit']);
    expect(types.filter((type) => !documented(section, type))).to.deep.equal([]);
    const manifest = (await (
      await fetch('/packages/elements/custom-elements.json')
    ).json()) as Manifest;
    const declared = manifest.modules
      .flatMap((m) => m.declarations ?? [])
      .flatMap((d) => (d.events ?? []).map((e) => e.name));
    expect(declared.filter((name) => !types.includes(name))).to.deep.equal([]);
  });

  it('documents every code a component can send, each with a shopper sentence', async () => {
    const section = await readme();
    const codes = new Set([
      ...(await codesInElements()),
      ...(await codesOfMiddleware()),
      ...browserFacing(Object.keys(meanings)),
    ]);
    expect(codes).to.include.keys('aborted', 'authentication_cancelled', 'network_error');
    const known = Object.keys(meanings);
    expect(
      [...codes].filter((code) => !known.includes(code)),
      'codes without a line in api/codes.ts',
    ).to.deep.equal([]);
    expect(
      [...codes].filter((code) => !documented(section, code)),
      'codes missing from the README',
    ).to.deep.equal([]);
    expect(documented(section, 'http_NNN')).to.equal(true);
  });
});
