import type { Request, Response } from 'express';
import { RequestRejectedError } from '@pg-checkout/node';
import type { AdminDeps } from './deps.js';
import { back, formKey, outcomeUnknown, REFERENCE, RELOAD } from './forms.js';

const alreadyExecuted = (reference: string) =>
  `Payment ${reference} was already executed; nothing more was done.`;

/** POST /admin/payments/:reference/execute: captures an authorized payment, once per form. */
export function executePayment({ client, actions: forms }: AdminDeps) {
  const settledNow = async (reference: string): Promise<boolean> => {
    try {
      return (await client.lookups.payment(reference)).status === 'SETTLED';
    } catch {
      return false;
    }
  };
  return async (req: Request<{ reference: string }>, res: Response) => {
    const reference = req.params.reference;
    if (!REFERENCE.test(reference)) return back(res, 'Unknown payment reference.');
    const key = formKey(req);
    if (!key) return back(res, RELOAD);
    const begun = await forms.begin({ key, action: 'execute', paymentReference: reference });
    if (!begun.first) {
      if ('conflict' in begun) return back(res, RELOAD);
      if (begun.earlier.state === 'done') return back(res, alreadyExecuted(reference));
    }
    try {
      const record = await client.lookups.payment(reference);
      const result =
        record.currency === 'ZAR'
          ? await client.payments.execute(reference)
          : await client.foreign.execute(reference);
      const done = `Payment ${reference} ${result.kind === 'reversed' ? 'reversed' : 'executed'}.`;
      await forms.finish(key, 'done', done);
      back(res, done);
    } catch (err) {
      if (err instanceof RequestRejectedError && (await settledNow(reference))) {
        // Two submits of one form raced to the gateway; the other one executed it.
        await forms.finish(key, 'done', 'executed by a repeat of the form');
        return back(res, alreadyExecuted(reference));
      }
      if (!outcomeUnknown(err)) await forms.finish(key, 'failed', (err as Error).message);
      back(res, `Execute failed: ${(err as Error).message}`);
    }
  };
}
