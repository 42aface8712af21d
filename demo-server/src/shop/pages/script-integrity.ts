import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { elementsDist } from '../../platform/build.js';

/**
 * ` integrity="sha384-…" crossorigin="anonymous"` for a script-tag file of @pg-checkout/elements, from the
 * manifest its build wrote (dist/integrity.json), read on each page so a rebuild is picked up; '' when
 * the file is not in it.
 */
export function integrityOf(file: string): string {
  const path = join(elementsDist, 'integrity.json');
  if (!existsSync(path)) return '';
  const { files } = JSON.parse(readFileSync(path, 'utf8')) as {
    files: { file: string; integrity: string }[];
  };
  const found = files.find((f) => f.file === file);
  return found ? ` integrity="${found.integrity}" crossorigin="anonymous"` : '';
}
