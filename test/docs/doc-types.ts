/**
 * The `ts` blocks of docs/*.md, read and checked against the shipped types (doc-types.test.ts).
 *
 * Every such block says above its fence (blank lines between are fine) what it is:
 *
 * - `<!-- doc-types: @pg-checkout/server -->`: the block declares interfaces, types and
 *   `declare function`s only, each one an export of that module under the same name, and each must be
 *   the shipped one: both ways assignable and identical under the strictest comparison TypeScript has,
 *   so a dropped optional parameter, a `void` for a `boolean` or a missing `| undefined` fails. Names
 *   the block uses without declaring them come from the same module.
 * - `<!-- doc-code: sketch (why) -->`: a sketch of a call or an answer (`token?`, `{ success, message }`),
 *   not TypeScript; the test prints why, and the names it imports must still be exports of their module.
 *
 * A block with neither fails.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

export interface DocBlock {
  /** `docs/contracts.md:1350` */
  where: string;
  /** The line of the block's first line of code in its document (1-based). */
  firstLine: number;
  code: string;
  kind: { types: string } | { sketch: string } | { missing: string };
}

const MARKER = /^<!-- doc-(types|code): (.*?) -->$/;

export function docBlocks(root: string, path: string): DocBlock[] {
  return blocksOfText(path, readFileSync(join(root, path), 'utf8'));
}

export function blocksOfText(path: string, text: string): DocBlock[] {
  const lines = text.split('\n');
  const blocks: DocBlock[] = [];
  for (let i = 0; i < lines.length; i += 1) {
    const open = /^```(\w*)\s*$/.exec(lines[i]!);
    if (!open) continue;
    const start = i;
    let end = i + 1;
    while (end < lines.length && !lines[end]!.startsWith('```')) end += 1;
    i = end;
    if (open[1] !== 'ts' && open[1] !== 'typescript') continue;
    let above = start - 1;
    while (above > 0 && lines[above]!.trim() === '') above -= 1;
    const where = `${path}:${start + 1}`;
    const marker = MARKER.exec(lines[above]?.trim() ?? '');
    let kind: DocBlock['kind'];
    if (marker?.[1] === 'types' && /^@?[\w./-]+$/.test(marker[2]!)) kind = { types: marker[2]! };
    else if (marker?.[1] === 'code' && /^sketch \(.+\)$/.test(marker[2]!))
      kind = { sketch: /^sketch \((.+)\)$/.exec(marker[2]!)![1]! };
    else
      kind = {
        missing: marker
          ? `${where}: a marker reads \`doc-types: <module>\` or \`doc-code: sketch (why)\`, not \`${lines[above]!.trim()}\``
          : `${where}: a ts block says above its fence what it is: <!-- doc-types: <module> --> or <!-- doc-code: sketch (why) -->`,
      };
    blocks.push({
      where,
      firstLine: start + 2,
      code: lines.slice(start + 1, end).join('\n'),
      kind,
    });
  }
  return blocks;
}

/** The declarations a `doc-types` block makes, or what in it is not one. */
function declarationsOf(block: DocBlock): {
  names: { name: string; value: boolean; line: number }[];
  problems: string[];
} {
  const source = ts.createSourceFile('block.ts', block.code, ts.ScriptTarget.ES2022, true);
  const names: { name: string; value: boolean; line: number }[] = [];
  const problems: string[] = [];
  const lineOf = (node: ts.Node) =>
    block.firstLine + source.getLineAndCharacterOfPosition(node.getStart(source)).line;
  for (const statement of source.statements) {
    if (ts.isInterfaceDeclaration(statement) || ts.isTypeAliasDeclaration(statement))
      names.push({ name: statement.name.text, value: false, line: lineOf(statement) });
    else if (
      ts.isFunctionDeclaration(statement) &&
      statement.name &&
      !statement.body &&
      statement.modifiers?.some((m) => m.kind === ts.SyntaxKind.DeclareKeyword)
    )
      names.push({ name: statement.name.text, value: true, line: lineOf(statement) });
    else
      problems.push(
        `${block.where.split(':')[0]}:${lineOf(statement)}: not an interface, a type or a \`declare function\`: ${statement.getText(source).split('\n')[0]}`,
      );
  }
  const parse = (source as unknown as { parseDiagnostics: ts.Diagnostic[] }).parseDiagnostics;
  for (const d of parse)
    problems.push(
      `${block.where.split(':')[0]}:${block.firstLine + source.getLineAndCharacterOfPosition(d.start ?? 0).line}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`,
    );
  if (names.length === 0 && problems.length === 0)
    problems.push(`${block.where}: declares nothing`);
  return { names, problems };
}

/** The names a sketch imports, with their module. */
function importsOf(block: DocBlock): { module: string; name: string; line: number }[] {
  const source = ts.createSourceFile('block.ts', block.code, ts.ScriptTarget.ES2022, true);
  const found: { module: string; name: string; line: number }[] = [];
  for (const statement of source.statements) {
    if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier))
      continue;
    const bindings = statement.importClause?.namedBindings;
    if (!bindings || !ts.isNamedImports(bindings)) continue;
    for (const element of bindings.elements)
      found.push({
        module: statement.moduleSpecifier.text,
        name: (element.propertyName ?? element.name).text,
        line: block.firstLine + source.getLineAndCharacterOfPosition(element.getStart(source)).line,
      });
  }
  return found;
}

/** The repository's own settings (`exactOptionalPropertyTypes` among them), sources by `pg-source`. */
const options: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  customConditions: ['pg-source'],
  lib: ['lib.es2023.d.ts'],
  types: ['node'],
  strict: true,
  exactOptionalPropertyTypes: true,
  noUncheckedIndexedAccess: true,
  skipLibCheck: true,
  noEmit: true,
};

const HEADER_LINES = 3;

/**
 * Checks the blocks in one program; the problems of each block by its `where` (none: it holds).
 * `dir`: a folder inside the repository, where the virtual files resolve packages from.
 */
export function checkDocBlocks(blocks: DocBlock[], dir: string): Map<string, string[]> {
  const found = new Map(blocks.map((b) => [b.where, [] as string[]]));
  const sources = new Map<string, string>();
  const files = new Map<string, DocBlock>();
  const checked: {
    block: DocBlock;
    file: string;
    names: { name: string; value: boolean }[];
    used: string[];
  }[] = [];
  blocks.forEach((block, index) => {
    const file = join(dir, `doc-block-${index}.ts`);
    if ('missing' in block.kind) {
      found.get(block.where)!.push(block.kind.missing);
    } else if ('sketch' in block.kind) {
      const imports = importsOf(block);
      if (imports.length === 0) return;
      // Each imported name, on its own line, so an error says which.
      sources.set(
        file,
        imports.map((i) => `import { ${i.name} } from '${i.module}';`).join('\n') +
          `\nexport {};\n`,
      );
      files.set(file, block);
    } else {
      const { names, problems } = declarationsOf(block);
      found.get(block.where)!.push(...problems);
      if (problems.length > 0) return;
      const declared = new Set(names.map((n) => n.name));
      // What the block names without declaring it comes from the module, as the reader assumes.
      const used = new Set<string>();
      const visit = (node: ts.Node) => {
        if (ts.isTypeReferenceNode(node) && ts.isIdentifier(node.typeName))
          used.add(node.typeName.text);
        ts.forEachChild(node, visit);
      };
      visit(ts.createSourceFile('block.ts', block.code, ts.ScriptTarget.ES2022, true));
      files.set(file, block);
      checked.push({ block, file, names, used: [...used].filter((n) => !declared.has(n)) });
    }
  });
  // A first program learns the modules' exports, so undeclared names can be imported from them.
  const modules = [...new Set(checked.map((c) => (c.block.kind as { types: string }).types))];
  const probe = join(dir, 'doc-block-exports.ts');
  const probeText =
    modules.map((m, i) => `import type * as m${i} from '${m}';`).join('\n') + '\nexport {};\n';
  const host = ts.createCompilerHost(options);
  const { fileExists, readFile, getSourceFile } = host;
  const all = new Map([...sources, [probe, probeText]]);
  host.fileExists = (f) => all.has(f) || fileExists.call(host, f);
  host.readFile = (f) => all.get(f) ?? readFile.call(host, f);
  host.getSourceFile = (f, language, onError, create) => {
    const text = all.get(f);
    return text !== undefined
      ? ts.createSourceFile(f, text, language, true)
      : getSourceFile.call(host, f, language, onError, create);
  };
  const first = ts.createProgram([probe], options, host);
  const checker = first.getTypeChecker();
  const exportsOf = new Map<string, Set<string>>();
  for (const statement of first.getSourceFile(probe)!.statements) {
    if (!ts.isImportDeclaration(statement)) continue;
    const module = (statement.moduleSpecifier as ts.StringLiteral).text;
    const symbol = checker.getSymbolAtLocation(statement.moduleSpecifier);
    exportsOf.set(
      module,
      new Set(symbol ? checker.getExportsOfModule(symbol).map((s) => s.name) : []),
    );
  }
  for (const { block, file, names, used } of checked) {
    const module = (block.kind as { types: string }).types;
    const imported = used.filter((n) => exportsOf.get(module)?.has(n));
    const header = [
      `import type * as shipped from '${module}';`,
      imported.length > 0 ? `import type { ${imported.join(', ')} } from '${module}';` : '',
      `type Same<X, Y> = (<T>() => T extends X ? 1 : 2) extends (<T>() => T extends Y ? 1 : 2) ? true : false;`,
    ];
    const footer = names.map(({ name, value }) => {
      const doc = value ? `typeof ${name}` : name;
      const real = value ? `typeof shipped.${name}` : `shipped.${name}`;
      // Both ways assignable (the compiler says what differs), then identical.
      return `{ const d = null! as ${doc}; const s = null! as ${real}; const a: ${real} = d; const b: ${doc} = s; const same: Same<${doc}, ${real}> = true; void [a, b, same]; }`;
    });
    all.set(file, `${header.join('\n')}\n${block.code}\n${footer.join('\n')}\nexport {};\n`);
  }
  const program = ts.createProgram([...files.keys()], options, host, first);
  for (const d of ts.getPreEmitDiagnostics(program)) {
    let text = ts.flattenDiagnosticMessageText(d.messageText, '\n');
    if (text === "Type 'true' is not assignable to type 'false'.")
      text = 'not identical (an optional member, a parameter, `readonly` or `| undefined` differs)';
    const block = d.file && files.get(d.file.fileName);
    if (!block || d.start === undefined) {
      // An error outside the blocks (a package's own types) fails every block's reading.
      for (const list of found.values())
        list.push(`${d.file?.fileName ?? '(options)'}: TS${d.code} ${text}`);
      continue;
    }
    const line = d.file!.getLineAndCharacterOfPosition(d.start).line;
    const [doc] = block.where.split(':');
    if ('sketch' in block.kind) {
      const name = importsOf(block)[line];
      found.get(block.where)!.push(`${doc}:${name?.line ?? '?'}: TS${d.code} ${text}`);
      continue;
    }
    const codeLines = block.code.split('\n').length;
    const inBlock = line - HEADER_LINES;
    if (inBlock >= 0 && inBlock < codeLines) {
      found.get(block.where)!.push(`${doc}:${block.firstLine + inBlock}: TS${d.code} ${text}`);
    } else {
      const entry = checked.find((c) => c.block === block)!;
      const name = entry.names[inBlock - codeLines];
      found
        .get(block.where)!
        .push(
          `${doc}: \`${name?.name ?? '?'}\` is not the shipped one of ${(block.kind as { types: string }).types}: TS${d.code} ${text}`,
        );
    }
  }
  // One difference is often reported twice (assignable one way, then identical): say it once.
  for (const [where, list] of found) found.set(where, [...new Set(list)]);
  return found;
}
