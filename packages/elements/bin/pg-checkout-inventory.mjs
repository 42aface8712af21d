#!/usr/bin/env node
// The script inventory PCI DSS 6.4.3 asks for: each file of @pg-checkout/elements a payment page runs,
// its size, its integrity (SHA-384, SRI), why it is there and what loads it, from the package's own
// dist/integrity.json. Markdown by default; --json prints the manifest, --base <url> the files' URLs.
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: { base: { type: 'string' }, json: { type: 'boolean' }, help: { type: 'boolean' } },
});
if (values.help) {
  console.log(
    'Usage: pg-checkout-inventory [--base https://shop.example/js/] [--json]\n' +
      'Prints the payment page scripts of @pg-checkout/elements (PCI DSS 6.4.3): file, size, integrity, purpose, loaded by.',
  );
  process.exit(0);
}
const manifest = JSON.parse(
  readFileSync(new URL('../dist/integrity.json', import.meta.url), 'utf8'),
);
const base = values.base
  ? new URL(values.base.endsWith('/') ? values.base : `${values.base}/`)
  : undefined;
const where = (file) => (base ? new URL(file, base).href : file);
if (values.json) {
  console.log(
    JSON.stringify(
      { ...manifest, files: manifest.files.map((f) => ({ ...f, url: where(f.file) })) },
      null,
      2,
    ),
  );
} else {
  const cell = (text) => String(text).replaceAll('|', '\\|');
  console.log(`# Payment page scripts: ${manifest.package} ${manifest.version}\n`);
  console.log('| script | bytes | integrity | purpose | loaded by |');
  console.log('|---|---|---|---|---|');
  for (const f of manifest.files)
    console.log(
      `| ${cell(where(f.file))} | ${f.size} | \`${f.integrity}\` | ${cell(f.purpose)} | ${cell(f.loadedBy)} |`,
    );
  console.log(
    `\nEach hash is the file as published; a page that loads it with this integrity refuses any other bytes. ` +
      `pg-checkout.js checks the files it loads itself.`,
  );
}
