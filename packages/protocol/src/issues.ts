import type { z } from 'zod';

/** One validation problem: where (dotted path, `creditCard.cvv`, `transactions[0].amount`) and what. */
export interface SchemaIssue {
  path: string;
  message: string;
}

export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out ? `.${String(key)}` : String(key);
  }
  return out;
}

// A union branch whose own identifying keys were missing is the wrong branch to report on.
function branchScore(issues: readonly z.core.$ZodIssue[]): number {
  let score = 0;
  for (const issue of issues) {
    if (issue.code === 'unrecognized_keys') score += 50;
    else if (
      issue.code === 'invalid_type' &&
      /( is required|received undefined)$/.test(issue.message)
    )
      score += 100;
    else score += 1;
  }
  return score;
}

function flatten(issues: readonly z.core.$ZodIssue[], prefix: PropertyKey[], out: SchemaIssue[]) {
  for (const issue of issues) {
    const path = [...prefix, ...issue.path];
    if (issue.code === 'invalid_union' && issue.errors.length > 0) {
      const best = [...issue.errors].sort((a, b) => branchScore(a) - branchScore(b))[0] ?? [];
      flatten(best, path, out);
      continue;
    }
    let message = issue.message;
    if (issue.code === 'invalid_type' && /received undefined$/.test(message)) {
      message = `${String(path[path.length - 1] ?? 'the request')} is required`;
    }
    if (issue.code === 'unrecognized_keys') {
      message = `unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => `\`${k}\``).join(', ')}`;
    }
    out.push({ path: formatPath(path), message });
  }
}

/** Turns a zod error into readable issues, choosing the closest branch of a union. */
export function schemaIssues(error: z.ZodError): SchemaIssue[] {
  const out: SchemaIssue[] = [];
  flatten(error.issues, [], out);
  return out;
}

/** `creditCard.cvv: cvv must be a string ...; transaction.amount: ...` */
export function describeIssues(issues: readonly SchemaIssue[]): string {
  return issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join('; ');
}

/** Any protocol schema; lets other packages hold schemas without importing zod themselves. */
export type AnySchema = z.ZodType;
/** What a schema produces after parsing. */
export type SchemaOutput<S extends z.ZodType> = z.output<S>;
export type CheckResult<T> = { success: true; data: T } | { success: false; issues: SchemaIssue[] };

/** safeParse with readable issues instead of a ZodError. */
export function check<S extends z.ZodType>(schema: S, input: unknown): CheckResult<z.output<S>> {
  const result = schema.safeParse(input);
  return result.success
    ? { success: true, data: result.data }
    : { success: false, issues: schemaIssues(result.error) };
}
