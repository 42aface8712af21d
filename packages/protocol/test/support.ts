import assert from 'node:assert/strict';
import type { z } from 'zod';
import { describeIssues, schemaIssues } from '../src/index.js';

/** Asserts the sample parses and returns the parsed value. */
export function passes<T extends z.ZodType>(schema: T, input: unknown): z.output<T> {
  const result = schema.safeParse(input);
  if (!result.success)
    assert.fail(`expected to pass, got: ${describeIssues(schemaIssues(result.error))}`);
  return result.data;
}

/** Asserts the input fails with an issue at `path` whose message matches. */
export function failsAt(schema: z.ZodType, input: unknown, path: string, message: RegExp): void {
  const result = schema.safeParse(input);
  assert.equal(result.success, false, `expected ${path} to fail`);
  const issues = schemaIssues(result.error!);
  const hit = issues.find((i) => i.path === path && message.test(i.message));
  assert.ok(hit, `no issue at ${path} matching ${message}; got: ${describeIssues(issues)}`);
}

/** Deep copy with one change applied, for constraint-by-constraint tests. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests poke at arbitrary paths
export function withChange<T>(sample: T, change: (draft: any) => void): T {
  const copy = structuredClone(sample);
  change(copy);
  return copy;
}

export const visaCard = {
  number: '4111111111111111',
  cardHolder: 'Jane Doe',
  expiryMonth: 7,
  expiryYear: 2030,
  cvv: '123',
  type: 'visa',
};

export const transaction = { reference: 'order-1001', currency: 'ZAR', amount: 10000 };

export const urls = {
  success: 'https://shop.example/success',
  cancel: 'https://shop.example/cancel',
  error: 'https://shop.example/error',
  notify: 'https://shop.example/notify',
};

export const consumer = {
  name: 'Jane',
  surname: 'Doe',
  email: 'jane@shop.example',
  mobile: '+27821234567',
  consumerAddress: {
    addressLineOne: '1 Long St',
    city: 'Cape Town',
    postCode: '8001',
    country: 'ZA',
  },
};
