import { readFile } from 'node:fs/promises';

/**
 * Collapses a css`` template's text: comments out, whitespace runs to one space, none beside { } ; , >
 * nor after a colon (our styles hold no quoted text), no quotes around a plain word in an attribute
 * selector, and no leading zero before a decimal point.
 */
export function minifyCss(text) {
  return text
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/\s+/g, ' ')
    .replace(/\s*([{};,>])\s*/g, '$1')
    .replace(/:\s+/g, ':')
    .replace(/\[([\w-]+)='([a-zA-Z_][\w-]*)'\]/g, '[$1=$2]')
    .replace(/([\s:(,/-])0\.(\d)/g, '$1.$2')
    .replace(/;}/g, '}')
    .trim();
}

/**
 * Collapses an html``/svg`` template's static text: whitespace runs that hold a line break become one
 * space, or nothing between two tags; text on one line stays as written.
 */
export function minifyHtml(text) {
  return (
    text
      .replace(/<!--[\s\S]*?-->/g, '')
      .replace(/>\s*\n\s*</g, '><')
      .replace(/\s*\n\s*/g, ' ')
      // Inside tags: no space before their end, no quotes around a plain word (`part=field`).
      .replace(/(<\/?[a-z][\w-]*)\s+>/g, '$1>')
      .replace(/(^|")\s+(\/?>)/g, '$1$2')
      .replace(/(\s[\w:.?@-]+)="([\w-]+)"(?=[\s>])/g, '$1=$2')
  );
}

/**
 * Rewrites the static parts of css``, html`` and svg`` templates in a TypeScript source. The `${…}`
 * expressions are left as they are (scanned with their nesting, strings and inner templates).
 */
export function minifyTemplates(source) {
  let out = '';
  let i = 0;
  const tag = /\b(css|html|svg)`/g;
  for (;;) {
    tag.lastIndex = i;
    const m = tag.exec(source);
    if (!m) return out + source.slice(i);
    out += source.slice(i, m.index + m[0].length);
    const [text, end] = readTemplate(source, m.index + m[0].length, m[1]);
    out += text;
    i = end;
  }
}

function readTemplate(source, start, kind) {
  const squeeze = kind === 'css' ? minifyCss : kind === 'raw' ? (text) => text : minifyHtml;
  let out = '';
  let chunk = '';
  let i = start;
  while (i < source.length) {
    const c = source[i];
    if (c === '\\') {
      chunk += source.slice(i, i + 2);
      i += 2;
    } else if (c === '`') {
      return [out + squeeze(chunk) + '`', i + 1];
    } else if (c === '$' && source[i + 1] === '{') {
      out += squeeze(chunk) + '${';
      chunk = '';
      const [expr, end] = readExpression(source, i + 2);
      out += expr;
      i = end;
    } else {
      chunk += c;
      i += 1;
    }
  }
  throw new Error('unterminated template');
}

function readExpression(source, start) {
  let depth = 1;
  let out = '';
  let i = start;
  while (i < source.length) {
    const c = source[i];
    if (c === "'" || c === '"') {
      let j = i + 1;
      while (source[j] !== c) j += source[j] === '\\' ? 2 : 1;
      out += source.slice(i, j + 1);
      i = j + 1;
    } else if (c === '`') {
      const inner = /\b(css|html|svg)$/.exec(out);
      const [text, end] = readTemplate(source, i + 1, inner ? inner[1] : 'raw');
      out += '`' + text;
      i = end;
    } else {
      if (c === '{') depth += 1;
      if (c === '}') depth -= 1;
      if (depth === 0) return [out + '}', i + 1];
      out += c;
      i += 1;
    }
  }
  throw new Error('unterminated expression');
}

/** An esbuild plugin applying `minifyTemplates` to the package's own sources. */
export function minifyTemplatesPlugin() {
  return {
    name: 'pg-minify-templates',
    setup(build) {
      build.onLoad({ filter: /[\\/]src[\\/].*\.ts$/ }, async (args) => ({
        contents: minifyTemplates(await readFile(args.path, 'utf8')),
        loader: 'ts',
      }));
    },
  };
}
