import type { Ctx } from './context.js';
import { badRequest } from './errors.js';
import { formatDay, parseDay } from './format.js';
import { MAIN_MERCHANT_ID } from './store.js';
import type { Consumer, HostedInfo, TransferItem, Urls } from './types.js';
import { CURRENCY, MAX_AMOUNT, MAX_REFERENCE, readUrl, type BodyReader } from './validate.js';

export function readConsumer(
  r: BodyReader | undefined,
  opts: { address?: boolean; mobile?: boolean } = {},
): Consumer | undefined {
  if (!r) {
    if (opts.address)
      throw badRequest(
        'consumer.consumerAddress is required for payments in currencies other than ZAR',
      );
    if (opts.mobile) throw badRequest('consumer.mobile is required for KES payments');
    return undefined;
  }
  const consumer: Consumer = {
    name: r.str('name', { max: 100 }),
    surname: r.str('surname', { max: 100 }),
    email: r.str('email', { max: 254 }),
    mobile: r.str('mobile', {
      max: 20,
      pattern: /^\+?\d{6,15}$/,
      hint: 'an international number with dial code',
    }),
  };
  const address = r.obj('consumerAddress');
  if (address) {
    address.str('addressLineOne', { max: 200 });
    address.str('city', { max: 100 });
    address.str('postCode', { max: 20 });
    address.str('country', { max: 2, pattern: /^[A-Za-z]{2}$/, hint: 'a two-letter country code' });
  } else if (opts.address) {
    throw badRequest(
      'consumer.consumerAddress is required for payments in currencies other than ZAR',
    );
  }
  if (opts.mobile && !consumer.mobile)
    throw badRequest('consumer.mobile is required for KES payments');
  return consumer;
}

/** The URLs object; undefined when any of success, cancel, error is missing (the caller picks the error). */
export function readUrls(r: BodyReader | undefined): Urls | undefined {
  if (!r) return undefined;
  const urls: Urls = {
    success: readUrl(r, 'success'),
    cancel: readUrl(r, 'cancel'),
    error: readUrl(r, 'error'),
    notify: readUrl(r, 'notify'),
  };
  return urls.success && urls.cancel && urls.error ? urls : undefined;
}

/** A Prepared Transfer; affiliates get at most 90% of a non-ZAR payment (spec, Limits). */
export function readPreparedTransfer(
  ctx: Ctx,
  r: BodyReader,
  amount: number,
  currency: string,
  already: TransferItem[] = [],
): { fromReference: string; toMerchants: TransferItem[] } {
  const fromReference = r.reqStr('reference', { max: MAX_REFERENCE });
  const items = r.objArray('toMerchants', { required: true, max: 50 })!;
  if (items.length === 0) throw badRequest(`${r.name('toMerchants')} must not be empty`);
  const toMerchants = items.map((m) => {
    const merchantId = m.reqInt('merchantId', { min: 1 });
    if (merchantId === MAIN_MERCHANT_ID || !ctx.store.merchants.has(merchantId)) {
      throw badRequest(`${m.name('merchantId')} ${merchantId} is not an affiliated merchant`);
    }
    const itemCurrency = m.reqStr('currency', { pattern: CURRENCY, hint: 'a three-letter code' });
    if (itemCurrency !== currency)
      throw badRequest(`${m.name('currency')} must be the payment's currency ${currency}`);
    return {
      merchantId,
      merchantReference: m.reqStr('merchantReference', { max: MAX_REFERENCE }),
      currency: itemCurrency,
      amount: m.reqInt('amount', { min: 1, max: MAX_AMOUNT }),
    };
  });
  const total = [...already, ...toMerchants].reduce((sum, m) => sum + m.amount, 0);
  const limit = currency === 'ZAR' ? amount : Math.floor(amount * 0.9);
  if (total > limit) {
    throw badRequest(
      `Transfers total ${total}, more than the ${currency === 'ZAR' ? '' : '90% '}limit of ${limit} for a payment of ${amount}`,
    );
  }
  return { fromReference, toMerchants };
}

/** transactionDate (yyyy-MM-dd), today by default; a day in the past is refused. */
export function readTransactionDay(ctx: Ctx, r: BodyReader): string {
  const value = r.str('transactionDate', {
    pattern: /^\d{4}-\d{2}-\d{2}$/,
    hint: 'format yyyy-MM-dd',
  });
  const today = formatDay(ctx.clock.now());
  if (value === undefined) return today;
  if (parseDay(value) === undefined)
    throw badRequest(`transactionDate ${value} is not a real date`);
  if (value < today) throw badRequest(`transactionDate ${value} is in the past`);
  return value;
}

export function readTravel(r: BodyReader, info: HostedInfo): void {
  info.description = r.str('description', { max: 1000 });
  info.destinationCountry = r.str('destinationCountry', {
    max: 2,
    pattern: /^[A-Za-z]{2}$/,
    hint: 'a two-letter code',
  });
  // No minimum in the spec; 0 is what clients send for an unset number, so it means the default 1.
  const pax = r.raw.pax;
  if (
    pax !== undefined &&
    pax !== null &&
    (typeof pax !== 'number' || !Number.isInteger(pax) || pax < 0)
  ) {
    throw badRequest('pax must be a whole number, 0 or more (0 means the default 1)');
  }
  info.pax = typeof pax === 'number' && pax > 0 ? pax : 1;
}
