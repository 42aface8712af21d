// Writes dist/jsx/*.d.ts from custom-elements.json: each framework's element typings (properties,
// attributes, events) for every tag, so the typings cannot drift from the classes. Property and
// attribute types are read from the class (`PgCheckout['endpoint']`), event types from
// `GlobalEventHandlersEventMap`: a name in the manifest that the code does not declare fails the build.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const NOTE = '// Generated from custom-elements.json by scripts/jsx-types.mjs. Do not edit.\n';

/** The public elements of the manifest: tag, class, module, properties, attributes, events. */
export function elementsOf(manifest) {
  return manifest.modules.flatMap((module) =>
    (module.declarations ?? [])
      .filter((d) => d.customElement && d.tagName)
      .map((d) => ({
        tag: d.tagName,
        className: d.name,
        module: module.path,
        properties: (d.members ?? [])
          .filter(
            (m) =>
              m.kind === 'field' &&
              !m.static &&
              !m.readonly &&
              (m.privacy ?? 'public') === 'public' &&
              !m.name.startsWith('_') &&
              !m.name.startsWith('#'),
          )
          .map((m) => m.name),
        attributes: (d.attributes ?? [])
          .filter((a) => a.fieldName)
          .map((a) => ({ name: a.name, field: a.fieldName, number: a.type?.text === 'number' })),
        events: [...new Set((d.events ?? []).map((e) => e.name))],
      })),
  );
}

const quote = (s) => `'${s}'`;
const pascal = (tag) =>
  tag.replace(/(^|-)([a-z0-9])/g, (_, __, c) => c.toUpperCase()).replace(/^Pg/, 'Pg');

function shared(elements, dir) {
  const lines = [NOTE, "export type * from '../events.js';"];
  for (const el of elements) {
    const from = relative(dir, el.module).replace(/\\/g, '/');
    lines.push(
      `import type { ${el.className} } from '${from.startsWith('.') ? from : `./${from}`}';`,
    );
  }
  lines.push('');
  for (const el of elements) {
    const name = pascal(el.tag);
    lines.push(`/** \`<${el.tag}>\`'s settable properties. */`);
    lines.push(
      `export type ${name}Properties = Partial<Pick<${el.className}, ${el.properties.map(quote).join(' | ') || 'never'}>>;`,
    );
    lines.push(
      `/** \`<${el.tag}>\`'s attributes, as written in markup (numbers may be written as strings). */`,
    );
    lines.push(`export type ${name}Attributes = {`);
    for (const a of el.attributes) {
      const type = `${el.className}[${quote(a.field)}]${a.number ? ' | `${number}`' : ''}`;
      lines.push(`  ${quote(a.name)}?: ${type};`);
    }
    lines.push('};');
    lines.push(`/** \`<${el.tag}>\`'s events by name. */`);
    lines.push(`export type ${name}Events = {`);
    for (const e of el.events)
      lines.push(`  ${quote(e)}: GlobalEventHandlersEventMap[${quote(e)}];`);
    lines.push('};');
    lines.push('');
  }
  lines.push('/** Every element: its class, properties, attributes and events. */');
  lines.push('export interface PgElements {');
  for (const el of elements) {
    const name = pascal(el.tag);
    lines.push(
      `  ${quote(el.tag)}: { element: ${el.className}; properties: ${name}Properties; attributes: ${name}Attributes; events: ${name}Events };`,
    );
  }
  lines.push('}');
  return lines.join('\n') + '\n';
}

/** Listener props named `${prefix}${event}` (React and Preact `onpg-approved`, Svelte the same, Solid `on:pg-approved`). */
const listenersType = `
type Listeners<E, Prefix extends string> = {
  [K in keyof E as \`\${Prefix}\${K & string}\`]?: (event: E[K]) => void;
};
type Props<T extends keyof PgElements> = PgElements[T]['properties'] & PgElements[T]['attributes'];
`;

const frameworks = {
  react: (
    elements,
  ) => `${NOTE}// React 19: properties and \`onpg-…\` listeners on the custom elements.
import type { DetailedHTMLProps, HTMLAttributes } from 'react';
import type { PgElements } from './elements.js';
export type * from './elements.js';
${listenersType}
type ElementProps<T extends keyof PgElements> = Omit<
  DetailedHTMLProps<HTMLAttributes<PgElements[T]['element']>, PgElements[T]['element']>,
  keyof Props<T>
> &
  Props<T> &
  Listeners<PgElements[T]['events'], 'on'>;

declare module 'react' {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace JSX {
    interface IntrinsicElements {
${elements.map((el) => `      ${quote(el.tag)}: ElementProps<${quote(el.tag)}>;`).join('\n')}
    }
  }
}
`,
  preact: (
    elements,
  ) => `${NOTE}// Preact: properties and \`onpg-…\` listeners on the custom elements.
import type { JSX } from 'preact';
import type { PgElements } from './elements.js';
export type * from './elements.js';
${listenersType}
type ElementProps<T extends keyof PgElements> = Omit<JSX.HTMLAttributes<PgElements[T]['element']>, keyof Props<T>> &
  Props<T> &
  Listeners<PgElements[T]['events'], 'on'>;

declare module 'preact' {
  namespace JSX {
    interface IntrinsicElements {
${elements.map((el) => `      ${quote(el.tag)}: ElementProps<${quote(el.tag)}>;`).join('\n')}
    }
  }
}
`,
  solid: (
    elements,
  ) => `${NOTE}// Solid: properties, attributes and \`on:pg-…\` listeners on the custom elements.
import type { JSX } from 'solid-js';
import type { PgElements } from './elements.js';
export type * from './elements.js';
${listenersType}
type ElementProps<T extends keyof PgElements> = Omit<JSX.HTMLAttributes<PgElements[T]['element']>, keyof Props<T>> &
  Props<T> & {
    [K in keyof PgElements[T]['properties'] as \`prop:\${K & string}\`]?: PgElements[T]['properties'][K];
  } & Listeners<PgElements[T]['events'], 'on:'>;

declare module 'solid-js' {
  namespace JSX {
    interface IntrinsicElements {
${elements.map((el) => `      ${quote(el.tag)}: ElementProps<${quote(el.tag)}>;`).join('\n')}
    }
  }
}
`,
  svelte: (
    elements,
  ) => `${NOTE}// Svelte 5: properties, attributes and \`onpg-…\` event attributes on the custom elements.
import type { HTMLAttributes } from 'svelte/elements';
import type { PgElements } from './elements.js';
export type * from './elements.js';
${listenersType}
type ElementProps<T extends keyof PgElements> = Omit<HTMLAttributes<PgElements[T]['element']>, keyof Props<T>> &
  Props<T> &
  Listeners<PgElements[T]['events'], 'on'>;

declare module 'svelte/elements' {
  interface SvelteHTMLElements {
${elements.map((el) => `    ${quote(el.tag)}: ElementProps<${quote(el.tag)}>;`).join('\n')}
  }
}
`,
  astro: (
    elements,
  ) => `${NOTE}// Astro: the elements' attributes in .astro templates, for astro check (events are bound in scripts).
import type { PgElements } from './elements.js';
export type * from './elements.js';

declare global {
  namespace astroHTML.JSX {
    interface IntrinsicElements {
${elements.map((el) => `      ${quote(el.tag)}: Omit<HTMLAttributes, keyof PgElements[${quote(el.tag)}]['attributes']> & PgElements[${quote(el.tag)}]['attributes'];`).join('\n')}
    }
  }
}
`,
  vue: (
    elements,
  ) => `${NOTE}// Vue 3: the elements as global components, for vue-tsc and Volar (\`@pg-approved\`, \`:saved-cards\`).
// Vue still needs \`compilerOptions.isCustomElement: (tag) => tag.startsWith('pg-')\` to leave them alone.
// Vue sets \`method-timeout\` as the \`methodTimeout\` property, unconverted: bind numbers (\`:method-timeout="3000"\`).
import type { EmitFn, HTMLAttributes, PublicProps } from 'vue';
import type { PgElements } from './elements.js';
export type * from './elements.js';

type Props<T extends keyof PgElements> = PgElements[T]['properties'] & PgElements[T]['attributes'];
type ElementProps<T extends keyof PgElements> = new () => PgElements[T]['element'] & {
  $props: Omit<HTMLAttributes, keyof Props<T>> & Props<T> & PublicProps;
  $emit: EmitFn<{ [K in keyof PgElements[T]['events']]: (event: PgElements[T]['events'][K]) => void }>;
};

declare module 'vue' {
  interface GlobalComponents {
${elements.map((el) => `    ${quote(el.tag)}: ElementProps<${quote(el.tag)}>;`).join('\n')}
  }
}
`,
};

export function writeJsxTypes(root) {
  const manifest = JSON.parse(readFileSync(join(root, 'custom-elements.json'), 'utf8'));
  const elements = elementsOf(manifest);
  const outDir = join(root, 'dist', 'jsx');
  mkdirSync(outDir, { recursive: true });
  writeFileSync(join(outDir, 'elements.d.ts'), shared(elements, 'dist/jsx'));
  writeFileSync(join(outDir, 'elements.js'), 'export {};\n');
  for (const [name, render] of Object.entries(frameworks)) {
    writeFileSync(join(outDir, `${name}.d.ts`), render(elements));
    // A module to import for its types (`import '@pg-checkout/elements/jsx/react'`) that adds nothing.
    writeFileSync(join(outDir, `${name}.js`), 'export {};\n');
  }
  return { elements: elements.map((e) => e.tag), files: Object.keys(frameworks) };
}
