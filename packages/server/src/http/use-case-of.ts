import { REDIRECT_METHODS } from '@pg-checkout/protocol/vocabulary';
import type { HttpExchange } from './exchange.js';
import type { Route } from './route.js';
import { ATTR } from '../telemetry/names.js';

/** The use case each route runs, by `METHOD path`: the span's name (`pg_checkout.<name>`). */
const USE_CASES: Record<string, [name: string, attributes?: Record<string, string>]> = {
  'GET /config': ['config'],
  'POST /payments': ['card_payment', { [ATTR.method]: 'card' }],
  'POST /payments/:reference/3dsv2/confirm': ['step2_confirm', { [ATTR.threeDSVersion]: '2' }],
  'GET /payments/:reference': ['payment_status'],
  'GET /order': ['order_status'],
  'GET /3ds/:session/method': ['three_ds_method', { [ATTR.threeDSVersion]: '2' }],
  'POST /3ds/:session/callback': ['three_ds_proof', { [ATTR.threeDSVersion]: '2' }],
  'POST /3ds/:session/term': ['three_ds_proof', { [ATTR.threeDSVersion]: '1' }],
  ...Object.fromEntries(
    REDIRECT_METHODS.map((method) => [
      `POST /${method}`,
      ['redirect_start', { [ATTR.method]: method }] as [string, Record<string, string>],
    ]),
  ),
  'GET /cards': ['saved_cards'],
  'POST /cards': ['save_card'],
  'DELETE /cards/:token': ['delete_card'],
  'POST /webhooks/notify': ['webhook', { [ATTR.webhookType]: 'payment' }],
  'POST /webhooks/payout': ['webhook', { [ATTR.webhookType]: 'payout' }],
};

const SAVED_CARD: [string, Record<string, string>] = [
  'saved_card_payment',
  { [ATTR.method]: 'saved_card' },
];

/** The use case a request runs; a card payment with a saved card's token is its own. */
export function useCaseOf(route: Route, ex: HttpExchange): [string, Record<string, string>] {
  const key = `${route.method} ${route.path}`;
  const [name, attributes = {}] = USE_CASES[key] ?? ['route', {}];
  if (name === 'card_payment') {
    const card = (ex.body as { card?: { token?: unknown } } | undefined)?.card;
    if (typeof card?.token === 'string') return SAVED_CARD;
  }
  return [name, attributes];
}
