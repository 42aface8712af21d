/**
 * A shopper of the store-fault phase, without a browser: it pays one order with one card, goes
 * through 3-D Secure as `<pg-checkout>` would (method page, Step 2 confirm, the sandbox's access
 * control page with code 1234, the bank's post to the middleware, status polls), and presses Pay
 * again after any answer that is not final (503, 504, 502, 409 conflict, a network error).
 * Every answer it gets is recorded with the id of the request (`x-soak-req`) that got it.
 */
import type { SoakCard } from './cards.js';
import { paymentBody } from './cards.js';
import { seeded } from './random.js';

export interface Said {
  order: string;
  /** `x-soak-req`: `{order}#{k}`. */
  req: string;
  route: 'create' | 'method' | 'step2' | 'acs' | 'callback' | 'term' | 'status';
  sentAt: number;
  at: number;
  /** 0: no answer (network error). */
  http: number;
  contentType: string;
  body?:
    | {
        success?: boolean;
        status?: string;
        code?: string;
        reference?: string;
        message?: string;
        clientSecret?: string;
        threeDS?: Record<string, string | number>;
      }
    | undefined;
  /** A press of Pay after the order was approved. */
  resubmit?: boolean;
  /** The first characters of a non-JSON answer, or the network error. */
  text?: string;
}

export interface ShopperResult {
  order: string;
  card: SoakCard;
  said: Said[];
  /** Pay pressed this many times. */
  presses: number;
  /** Pay pressed again after an approval. */
  resubmits: number;
  /** Challenges completed at the bank whose status polls never showed a final state. */
  pollsGivenUp: number;
  /** The last final state the shopper was shown, if any. */
  final?: Said;
  /** Two-tab orders: what the tab with the open challenge ended on. */
  challengeTab?: { card: SoakCard; final?: Said };
}

export interface ShopperOptions {
  url: string;
  origin: string;
  maxPresses: number;
  /** How many status polls after a challenge before the shopper gives up on it. */
  maxPolls: number;
  pollMs: number;
  /** Prefix of this tab's request ids, for an order paid in two tabs. */
  tab?: string;
  /**
   * After an approval, press Pay once more after a short random pause (a reload, the back button):
   * a Redis restart in between must not let it charge again. Presses again while it is not final.
   */
  resubmitAfterApproved?: boolean;
  /** Runs once, when a challenge is about to be shown (the shopper pays in another tab meanwhile). */
  beforeChallenge?: () => Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const chance = seeded('shopper');
const backoff = (press: number) => Math.min(1_500, 100 * press) + chance() * 200;

const FINAL = new Set(['approved', 'declined', 'failed', 'pending']);

/** Values of the hidden inputs of a form in `html`, and its action. */
function formOf(html: string): { action?: string; fields: Record<string, string> } {
  const unescape = (v: string) =>
    v
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&amp;/g, '&');
  const action = /<form[^>]*\baction="([^"]*)"/i.exec(html)?.[1];
  const fields: Record<string, string> = {};
  for (const m of html.matchAll(/<input[^>]*>/gi)) {
    const name = /\bname="([^"]*)"/i.exec(m[0])?.[1];
    const value = /\bvalue="([^"]*)"/i.exec(m[0])?.[1];
    if (name && value !== undefined) fields[name] = unescape(value);
  }
  return { ...(action ? { action: unescape(action) } : {}), fields };
}

export async function shop(
  order: string,
  card: SoakCard,
  options: ShopperOptions,
): Promise<ShopperResult> {
  const said: Said[] = [];
  let k = 0;
  const result: ShopperResult = { order, card, said, presses: 0, resubmits: 0, pollsGivenUp: 0 };

  async function call(
    route: Said['route'],
    url: string,
    init: { method: string; headers?: Record<string, string>; body?: string },
  ): Promise<Said> {
    const req = `${order}#${options.tab ?? ''}${++k}`;
    const sentAt = Date.now();
    const entry: Said = { order, req, route, sentAt, at: 0, http: 0, contentType: '' };
    try {
      const response = await fetch(url, {
        ...init,
        headers: { ...init.headers, 'x-soak-req': req },
        signal: AbortSignal.timeout(20_000),
      });
      const text = await response.text();
      entry.http = response.status;
      entry.contentType = response.headers.get('content-type') ?? '';
      if (entry.contentType.includes('application/json')) {
        try {
          entry.body = JSON.parse(text) as Said['body'];
        } catch {
          entry.text = text.slice(0, 200);
        }
      } else entry.text = text;
    } catch (error) {
      entry.text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    }
    entry.at = Date.now();
    said.push(entry);
    return entry;
  }

  const json = (extra: Record<string, string> = {}) => ({
    'content-type': 'application/json',
    origin: options.origin,
    ...extra,
  });
  const form = (fields: Record<string, string>) => ({
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  });

  /** The flow after an `authenticating` answer: the final state, or undefined to press Pay again. */
  async function authenticate(start: Said): Promise<Said | undefined> {
    const reference = start.body!.reference!;
    const secret = start.body!.clientSecret ?? '';
    let action = start.body!.threeDS!;
    if (action.version === 2 && action.step === 'method') {
      // The hidden frame loads the method page from the middleware and posts it to the bank.
      const page = await call('method', String(action.methodUrl), { method: 'GET' });
      if (page.http === 200 && page.text) {
        const method = formOf(page.text);
        if (method.action && method.fields.threeDSMethodData) {
          await fetch(method.action, form({ threeDSMethodData: method.fields.threeDSMethodData }))
            .then((r) => r.text())
            .catch(() => undefined);
        }
      }
      let step2: Said | undefined;
      for (let i = 0; i < 3; i++) {
        step2 = await call('step2', String(action.confirmUrl), {
          method: 'POST',
          headers: json({ 'x-pg-client-secret': secret }),
          body: '{}',
        });
        if (step2.http !== 0 && step2.http < 500 && step2.body?.code !== 'conflict') break;
        await sleep(backoff(i + 1));
      }
      if (!step2?.body?.status) return undefined;
      if (FINAL.has(step2.body.status)) return step2;
      if (step2.body.status !== 'authenticating' || !step2.body.threeDS) return undefined;
      action = step2.body.threeDS;
    }
    if (options.beforeChallenge) {
      const run = options.beforeChallenge;
      delete options.beforeChallenge;
      await run();
    }
    // The challenge: the bank's page in the frame, code 1234, the bank's post to the middleware.
    const acsUrl = String(action.acsUrl);
    const challenge: Record<string, string> =
      action.version === 2
        ? { creq: String(action.creq), threeDSSessionData: String(action.threeDSSessionData) }
        : { PaReq: String(action.paReq), MD: String(action.md), TermUrl: String(action.termUrl) };
    const acs = await call('acs', acsUrl, form(challenge));
    if (acs.http === 200 && acs.text) {
      const otp = formOf(acs.text);
      const answer = await fetch(new URL(otp.action ?? '', acsUrl), {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          accept: 'application/json',
        },
        body: new URLSearchParams({ ...otp.fields, otp: '1234', action: 'submit' }).toString(),
      })
        .then((r) => r.json() as Promise<{ action?: string; fields?: Record<string, string> }>)
        .catch(() => undefined);
      if (answer?.action && answer.fields) {
        await call(action.version === 2 ? 'callback' : 'term', answer.action, form(answer.fields));
      }
    }
    // The component polls the status until a final state, whatever the completion page said.
    for (let i = 0; i < options.maxPolls; i++) {
      const status = await call(
        'status',
        `${options.url}/payments/${encodeURIComponent(reference)}`,
        {
          method: 'GET',
          headers: { 'x-pg-client-secret': secret },
        },
      );
      if (status.body?.status && FINAL.has(status.body.status)) return status;
      await sleep(options.pollMs);
    }
    result.pollsGivenUp += 1;
    return undefined;
  }

  while (result.presses < options.maxPresses) {
    result.presses += 1;
    const created = await call('create', `${options.url}/payments`, {
      method: 'POST',
      headers: json({ 'x-order': order }),
      body: paymentBody(card),
    });
    const status = created.body?.status;
    let final: Said | undefined;
    if (created.http === 200 && status === 'authenticating') final = await authenticate(created);
    else if (created.http === 200 || created.http === 402) final = created;
    else if (created.http === 409 && created.body?.code === 'already_paid') final = created;
    else if (created.http >= 400 && created.http < 500 && created.http !== 409) final = created;
    // A `failed` state is final for the flow only when it is not one the shopper should retry.
    if (final && final.body?.status === 'failed' && final.http >= 500) final = undefined;
    if (final) {
      result.final = final;
      break;
    }
    await sleep(backoff(result.presses));
  }
  if (options.resubmitAfterApproved && result.final?.body?.status === 'approved') {
    await sleep(200 + chance() * 1_300);
    for (let i = 1; i <= 6; i++) {
      result.resubmits += 1;
      const again = await call('create', `${options.url}/payments`, {
        method: 'POST',
        headers: json({ 'x-order': order }),
        body: paymentBody(card),
      });
      again.resubmit = true;
      if (
        again.http === 200 ||
        again.http === 402 ||
        (again.http >= 400 && again.http < 500 && again.body?.code !== 'conflict')
      )
        break;
      await sleep(backoff(i));
    }
  }
  return result;
}

/**
 * One order in two tabs: tab A opens a 3-D Secure challenge; before answering it the shopper pays
 * the same order in tab B with a frictionless card; then completes tab A's challenge. The order
 * must be charged once, and tab A told its card was not charged (already paid).
 */
export async function shopInTwoTabs(
  order: string,
  challengeCard: SoakCard,
  payCard: SoakCard,
  options: ShopperOptions,
): Promise<ShopperResult> {
  let tabB: ShopperResult | undefined;
  const tabA = await shop(order, challengeCard, {
    ...options,
    tab: 'A',
    beforeChallenge: async () => {
      tabB = await shop(order, payCard, { ...options, tab: 'B' });
    },
  });
  // Tab A never got its challenge (its create kept failing): the order is paid in tab B alone.
  tabB ??= await shop(order, payCard, { ...options, tab: 'B' });
  return {
    order,
    card: payCard,
    said: [...tabA.said, ...tabB.said].sort((a, b) => a.sentAt - b.sentAt),
    presses: tabA.presses + tabB.presses,
    resubmits: tabA.resubmits + tabB.resubmits,
    pollsGivenUp: tabA.pollsGivenUp + tabB.pollsGivenUp,
    ...(tabB.final ? { final: tabB.final } : {}),
    challengeTab: { card: challengeCard, ...(tabA.final ? { final: tabA.final } : {}) },
  };
}
