// ESLint rule: a relative import stays inside its workspace; another workspace (a package's source, its
// test helpers) is imported by its npm name, so each package can move, build and pack on its own.
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const workspaces = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).workspaces;

/** The workspace folder holding `file` (relative to the repository), or '' for the root's own files. */
function workspaceOf(file) {
  const path = relative(root, file).split(sep).join('/');
  return workspaces.find((w) => path === w || path.startsWith(`${w}/`)) ?? '';
}

export default {
  meta: {
    type: 'problem',
    docs: { description: 'no relative import into another workspace' },
    messages: { cross: "'{{source}}' reaches into {{target}}: import it by the package's name" },
    schema: [],
  },
  create(context) {
    const from = workspaceOf(context.filename);
    const check = (node) => {
      const source = node.source?.value;
      if (typeof source !== 'string' || !source.startsWith('.')) return;
      const target = workspaceOf(resolve(dirname(context.filename), source));
      if (target === from) return;
      context.report({ node, messageId: 'cross', data: { source, target: target || 'the root' } });
    };
    return {
      ImportDeclaration: check,
      ExportNamedDeclaration: check,
      ExportAllDeclaration: check,
      ImportExpression: check,
    };
  },
};
