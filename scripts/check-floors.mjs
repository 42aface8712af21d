#!/usr/bin/env node
// `npm run floors`: each workspace package that declares `"floors"` in its package.json is read
// bottom to top. `floors` is an array, bottom floor first, each floor an array of paths relative to
// the package's `src/` (a folder or a file). Every non-test `.ts` file under `src/` must sit in
// exactly one floor, and may import files of its own floor or of lower ones; an import that points
// up, or any cycle among the files, is a fault. A package without `floors` is not checked.
// `"maxFilesPerFolder": N` beside `floors` also faults a folder of src/ holding more than N of those files.
//
// Usage: node scripts/check-floors.mjs [root]   (root: a folder with a package.json `workspaces`)
// Exit 0 when every declared package holds its floors, 1 with one line per fault otherwise.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

const root = resolve(process.argv[2] ?? join(dirname(new URL(import.meta.url).pathname), '..'));
const posix = (path) => path.split(sep).join('/');

/** Every non-test `.ts` file under `dir`, as paths relative to it. */
function sourceFiles(dir) {
  return readdirSync(dir, { recursive: true })
    .map((name) => posix(String(name)))
    .filter((name) => name.endsWith('.ts') && !name.endsWith('.d.ts') && !/\.test\.ts$/.test(name))
    .filter((name) => statSync(join(dir, name)).isFile())
    .sort();
}

/** The relative specifiers a file imports: static, `export ... from`, `import type`, dynamic. */
function specifiers(text) {
  return ts
    .preProcessFile(text, true, true)
    .importedFiles.map((file) => file.fileName)
    .filter((name) => name.startsWith('./') || name.startsWith('../'));
}

/** A relative specifier as a file under src (`.js` means `.ts`, a folder its `index.ts`). */
function resolveImport(src, from, specifier) {
  const base = join(src, dirname(from), specifier);
  const candidates = [
    base.replace(/\.(m?js)$/, (ext) => (ext === '.mjs' ? '.mts' : '.ts')),
    base,
    `${base}.ts`,
    join(base, 'index.ts'),
  ];
  const found = candidates.find((path) => existsSync(path) && statSync(path).isFile());
  return found === undefined ? undefined : posix(relative(src, found));
}

/** The floors a file falls in: each entry is a file or a folder under src. */
function floorsOf(floors, file) {
  const within = (entry) => {
    const path = posix(entry).replace(/^\.\//, '').replace(/\/$/, '');
    return file === path || file.startsWith(`${path}/`);
  };
  return floors.flatMap((entries, index) => (entries.some(within) ? [index] : []));
}

/** Cycles as lists of files (Tarjan's strongly connected components, one cycle named per component). */
function cycles(graph) {
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const components = [];
  let next = 0;
  const visit = (node) => {
    index.set(node, next);
    low.set(node, next);
    next += 1;
    stack.push(node);
    onStack.add(node);
    for (const to of graph.get(node) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node), low.get(to)));
      } else if (onStack.has(to)) low.set(node, Math.min(low.get(node), index.get(to)));
    }
    if (low.get(node) === index.get(node)) {
      const component = [];
      let member;
      do {
        member = stack.pop();
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      const selfLoop = component.length === 1 && graph.get(node)?.has(node);
      if (component.length > 1 || selfLoop) components.push(component.sort());
    }
  };
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) visit(node);
  // One concrete loop through each component: the shortest way back to its first file.
  return components.map((component) => {
    const members = new Set(component);
    const start = component[0];
    const previous = new Map([[start, undefined]]);
    const queue = [start];
    while (queue.length > 0) {
      const node = queue.shift();
      for (const to of graph.get(node) ?? []) {
        if (!members.has(to)) continue;
        if (to === start) {
          const loop = [node];
          for (let at = previous.get(node); at !== undefined; at = previous.get(at))
            loop.unshift(at);
          return { loop: [...loop, start], size: component.length };
        }
        if (!previous.has(to)) {
          previous.set(to, node);
          queue.push(to);
        }
      }
    }
    return { loop: component, size: component.length };
  });
}

/** The faults of one package, one line each. */
export function checkPackage(dir, floors, maxFilesPerFolder) {
  const faults = [];
  const src = join(dir, 'src');
  const shown = (file) => posix(relative(root, join(src, file)));
  const label = (floor) => `floor ${floor + 1} [${floors[floor].join(', ')}]`;
  if (!Array.isArray(floors) || floors.some((floor) => !Array.isArray(floor))) {
    return [
      `${posix(relative(root, dir))}/package.json: "floors" must be an array of arrays of paths`,
    ];
  }
  if (!existsSync(src)) return [`${posix(relative(root, dir))}: declares floors but has no src/`];
  const files = sourceFiles(src);
  const floorOf = new Map();
  for (const file of files) {
    const found = floorsOf(floors, file);
    if (found.length === 0) faults.push(`${shown(file)}: in no floor`);
    else if (found.length > 1)
      faults.push(`${shown(file)}: in ${found.length} floors (${found.map(label).join(', ')})`);
    else floorOf.set(file, found[0]);
  }
  for (const [index, entries] of floors.entries())
    for (const entry of entries)
      if (!existsSync(join(src, entry)))
        faults.push(
          `${posix(relative(root, dir))}/package.json: ${label(index)} names ${entry}, which is not under src/`,
        );
  if (maxFilesPerFolder !== undefined) {
    const perFolder = new Map();
    for (const file of files) perFolder.set(dirname(file), (perFolder.get(dirname(file)) ?? 0) + 1);
    for (const [folder, count] of perFolder)
      if (count > maxFilesPerFolder)
        faults.push(
          `${posix(relative(root, join(src, folder)))}/: holds ${count} files, more than ${maxFilesPerFolder}`,
        );
  }
  const graph = new Map(files.map((file) => [file, new Set()]));
  for (const file of files) {
    for (const specifier of specifiers(readFileSync(join(src, file), 'utf8'))) {
      const target = resolveImport(src, file, specifier);
      if (target === undefined) {
        if (!existsSync(join(src, dirname(file), specifier)))
          faults.push(`${shown(file)}: imports ${specifier}, which resolves to no file under src/`);
        continue;
      }
      if (!graph.has(target)) continue; // a test helper or a file outside the floors' reach
      graph.get(file).add(target);
      const from = floorOf.get(file);
      const to = floorOf.get(target);
      if (from !== undefined && to !== undefined && to > from)
        faults.push(
          `${shown(file)}: imports ${specifier} upward, from ${label(from)} to ${label(to)}`,
        );
    }
  }
  for (const { loop, size } of cycles(graph))
    faults.push(
      `${shown(loop[0])}: import cycle ${loop.map((file) => file).join(' -> ')}` +
        (size > loop.length - 1 ? ` (one of ${size} files importing each other)` : ''),
    );
  return faults;
}

const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const faults = [];
let checked = 0;
for (const workspace of manifest.workspaces ?? []) {
  const dir = join(root, workspace);
  const packageJson = join(dir, 'package.json');
  if (!existsSync(packageJson)) continue;
  const { floors, maxFilesPerFolder } = JSON.parse(readFileSync(packageJson, 'utf8'));
  if (floors === undefined) continue;
  checked += 1;
  faults.push(...checkPackage(dir, floors, maxFilesPerFolder));
}
for (const fault of faults) console.error(fault);
if (faults.length > 0) {
  console.error(`floors: ${faults.length} fault(s) in ${checked} package(s)`);
  process.exit(1);
}
console.log(`floors: ${checked} package(s) hold their floors`);
