'use client';
/**
 * The entry Node resolves (the `node` condition): the same components, each rendering its element's
 * markup with `@lit-labs/ssr` into a declarative shadow root, so the page has its real size before any
 * script runs and nothing moves when it hydrates. Next.js, React Router, Remix and Vite's SSR resolve it
 * for server rendering; browsers get index.ts.
 */
import { render } from '@lit-labs/ssr';
import { collectResultSync } from '@lit-labs/ssr/lib/render-result.js';
import { html } from 'lit';
import { pgComponents } from './components.js';

export type * from './components.js';

/** One template per element and set of property names (Lit caches templates by their strings). */
const templates = new Map<string, TemplateStringsArray>();

function templateFor(tag: string, names: string[]): TemplateStringsArray {
  const key = `${tag} ${names.join(' ')}`;
  let strings = templates.get(key);
  if (!strings) {
    // `<tag .a=${…} .b=${…}></tag>`: the names are the class's declared properties, never input.
    const parts = names.length
      ? [`<${tag} .${names[0]}=`, ...names.slice(1).map((n) => ` .${n}=`), `></${tag}>`]
      : [`<${tag}></${tag}>`];
    strings = Object.assign([...parts], { raw: [...parts] }) as TemplateStringsArray;
    templates.set(key, strings);
  }
  return strings;
}

/** The inner HTML of the declarative shadow root @lit-labs/ssr writes for `tag` with `properties`. */
function renderShadow(tag: string, properties: Record<string, unknown>): string {
  const names = Object.keys(properties).sort();
  const markup = collectResultSync(
    render(html(templateFor(tag, names), ...names.map((n) => properties[n]))),
  );
  const open = markup.indexOf('<template shadowroot');
  const close = markup.lastIndexOf('</template>', markup.lastIndexOf(`</${tag}>`));
  if (open === -1 || close === -1)
    throw new Error(`@lit-labs/ssr wrote no shadow root for <${tag}>`);
  return markup.slice(markup.indexOf('>', open) + 1, close);
}

export const { PgCheckout, PgCardForm, Pg3dsV2, Pg3dsV1 } = pgComponents(renderShadow);
