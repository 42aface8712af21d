/* global Buffer, URLSearchParams */
import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';

/**
 * A small stand-in for @pg-checkout/express + the sandbox that follows the Browser API of
 * docs/contracts.md, for the component tests. It runs on its own port, so the test page talks to it
 * cross-origin like a shop whose middleware lives on another host. Its bank pages answer by themselves
 * (no typing in a cross-origin frame): `hold` cards never answer, so cancel and timeout can be tested.
 * It hands out client secrets the way the contract computes them and answers 404 `not_found` to a read or
 * Step 2 confirm without the right one. It also listens on a second port, the "public" origin: `public`
 * cards have their completion page served from there (a shop whose publicUrl is another host than the
 * page's), and `misdirected` ones too while their action names the endpoint's origin as `callbackOrigin`.
 */
const cards = {
  4111111111111111: { kind: 'approve' },
  4000000000000002: { kind: 'decline', originalErrorCode: 'fin005' },
  4000000000009995: { kind: 'decline', originalErrorCode: 'fin051' },
  4000000000003063: { kind: 'method', then: 'challenge', outcome: 'approve' },
  4000000000003220: { kind: 'method', then: 'frictionless' },
  4000000000003055: { kind: 'challenge', outcome: 'approve' },
  4000000000000127: { kind: 'method', then: 'fail' },
  4000000000000119: { kind: 'challenge', outcome: 'decline' },
  4000000000003097: { kind: 'v1', outcome: 'approve' },
  4000000000000010: { kind: 'challenge', outcome: 'hold' },
  4000000000000028: { kind: 'v1', outcome: 'hold' },
  4000000000000036: { kind: 'challenge', outcome: 'approve', callback: 'public' },
  4000000000000044: { kind: 'v1', outcome: 'approve', callback: 'public' },
  4000000000000051: { kind: 'challenge', outcome: 'undecided', callback: 'misdirected' },
  4000000000000069: { kind: 'challenge', outcome: 'undecided' },
  5555555555554444: { kind: 'pending' },
};

const secretKey = 'mock-backend-session-secret-0123456789';

/** docs/contracts.md: base64url(HMAC-SHA256(key, "pg-checkout/client-secret/v1\0" + reference)). */
const clientSecretFor = (reference) =>
  createHmac('sha256', secretKey)
    .update(`pg-checkout/client-secret/v1\0${reference}`)
    .digest('base64url');

function ownsPayment(req, reference) {
  const given = Buffer.from(String(req.headers['x-pg-client-secret'] ?? ''));
  const expected = Buffer.from(clientSecretFor(reference));
  return given.length === expected.length && timingSafeEqual(given, expected);
}

const page = (body) =>
  `<!doctype html><html lang="en"><head><title>bank</title></head><body>${body}</body></html>`;

/**
 * A bank page that waits for the shopper, like the sandbox's: a code field it focuses when its window gets
 * focus, and a button. It tells the parent where focus went and how much was typed (never what), so tests
 * can check what the keyboard reaches inside a cross-origin frame.
 */
const holdPage =
  '<p>waiting for the shopper</p><label for="otp">Code</label><input id="otp"><button id="go">Submit</button>' +
  "<script>var i=document.getElementById('otp');var tell=function(m){parent.postMessage(Object.assign({source:'mock-bank'},m),'*')};" +
  "addEventListener('focus',function(){if(document.activeElement===document.body)i.focus()});" +
  "i.addEventListener('focus',function(){tell({type:'focus',id:'otp'})});" +
  "document.getElementById('go').addEventListener('focus',function(){tell({type:'focus',id:'go'})});" +
  "i.addEventListener('input',function(){tell({type:'input',length:i.value.length})});" +
  "addEventListener('keydown',function(e){if(e.key==='Escape')tell({type:'escape'})});</script>";

export async function startMockBackend() {
  const payments = new Map();
  const sessions = new Map();
  let base = '';
  let publicBase = '';
  let counter = 0;

  const state = (p) => {
    if (p.status === 'approved' || p.status === 'pending') {
      return {
        success: true,
        status: p.status,
        reference: p.reference,
        message: 'raw server text',
      };
    }
    if (p.status === 'declined') {
      return {
        success: false,
        status: 'declined',
        reference: p.reference,
        message: 'raw server text',
        code: p.code,
        originalErrorCode: p.originalErrorCode,
      };
    }
    if (p.status === 'failed') {
      return {
        success: false,
        status: 'failed',
        reference: p.reference,
        message: 'raw',
        code: p.code,
      };
    }
    return { success: true, status: 'authenticating', reference: p.reference, threeDS: p.threeDS };
  };

  /** Where the completion page is served from, and the origin the action announces for it. */
  const callbackBase = (p) => (p.card.callback ? publicBase : base);
  const callbackOrigin = (p) => (p.card.callback === 'public' ? publicBase : base);

  const challengeAction = (p) => ({
    version: 2,
    step: 'challenge',
    acsUrl: `${base}/acs/v2`,
    creq: Buffer.from(JSON.stringify({ session: p.session })).toString('base64url'),
    threeDSSessionData: p.session,
    transactionId: `tx-${p.reference}`,
    callbackOrigin: callbackOrigin(p),
  });

  const finish = (p, outcome) => {
    // A proof the gateway does not decide on: the completion page speaks, the payment stays open.
    if (outcome === 'undecided') return;
    if (outcome === 'approve') p.status = 'approved';
    else if (outcome === 'pending') p.status = 'pending';
    else if (outcome === 'fail')
      Object.assign(p, {
        status: 'declined',
        code: 'authentication_failed',
        originalErrorCode: 'fin006',
      });
    else
      Object.assign(p, { status: 'declined', code: 'card_declined', originalErrorCode: 'fin005' });
  };

  const completePage = (p) =>
    page(
      `<p>done</p><script>parent.postMessage({ source: 'pg-checkout', type: '3ds-complete', reference: ${JSON.stringify(p.reference)} }, ${JSON.stringify(p.pageOrigin)});</script>`,
    );

  // The bank: answers by itself unless the card holds.
  const acsPage = (p, action, field) =>
    p.card.outcome === 'hold'
      ? page(holdPage)
      : page(
          `<form method="post" action="${action}"><input type="hidden" name="${field}" value="ok-${p.session}"><input type="hidden" name="threeDSSessionData" value="${p.session}"><input type="hidden" name="MD" value="${p.session}"></form><script>document.forms[0].submit()</script>`,
        );

  async function body(req) {
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    const text = Buffer.concat(chunks).toString();
    if ((req.headers['content-type'] ?? '').includes('application/json'))
      return text ? JSON.parse(text) : {};
    return Object.fromEntries(new URLSearchParams(text));
  }

  const handle = async (req, res) => {
    const origin = req.headers.origin;
    const json = (status, value) => {
      res.writeHead(status, {
        'content-type': 'application/json',
        'access-control-allow-origin': origin ?? '*',
        'access-control-allow-credentials': 'true',
      });
      res.end(JSON.stringify(value));
    };
    // Byte for byte the answer for an unknown reference, whether the payment exists or the secret is wrong.
    const notFound = (p) => {
      if (p) p.deniedRequests = (p.deniedRequests ?? 0) + 1;
      return json(404, {
        success: false,
        message: 'This payment was not found.',
        code: 'not_found',
      });
    };
    const html = (text) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(text);
    };
    try {
      const url = new URL(req.url, base);
      const path = url.pathname;
      let m;
      if (req.method === 'OPTIONS') {
        res.writeHead(204, {
          'access-control-allow-origin': origin ?? '*',
          'access-control-allow-methods': 'GET,POST,DELETE',
          'access-control-allow-headers': 'content-type,x-pg-client-secret',
          'access-control-allow-credentials': 'true',
        });
        return res.end();
      }
      if (req.method === 'GET' && path === '/checkout/config') {
        return json(200, {
          success: true,
          amount: 12345,
          currency: 'ZAR',
          methods: ['card', 'eft', 'hosted'],
          savedCards: true,
        });
      }
      if (req.method === 'GET' && path === '/checkout/cards') {
        return json(200, {
          success: true,
          cards: [
            {
              token: 'tok_visa',
              number: '411111XXXXXX1111',
              type: 'visa',
              expiryMonth: 8,
              expiryYear: 2031,
              cardHolder: 'Jo Soap',
            },
          ],
        });
      }
      if (req.method === 'POST' && path === '/checkout/payments') {
        const request = await body(req);
        const number =
          request.card?.number ??
          (request.card?.token === 'tok_visa' ? '4111111111111111' : undefined);
        if (!number || typeof request.screenWidth !== 'number') {
          return json(400, { success: false, message: 'Bad request', code: 'invalid_request' });
        }
        counter += 1;
        const reference = `ref-${counter}`;
        const card = cards[number] ?? { kind: 'approve' };
        const p = {
          reference,
          card,
          session: randomUUID(),
          pageOrigin: origin ?? '*',
          request,
          status: 'authenticating',
          createdWithSecretHeader: 'x-pg-client-secret' in req.headers,
        };
        payments.set(reference, p);
        sessions.set(p.session, p);
        if (card.kind === 'approve') p.status = 'approved';
        else if (card.kind === 'pending') p.status = 'pending';
        else if (card.kind === 'decline')
          Object.assign(p, {
            status: 'declined',
            code: 'card_declined',
            originalErrorCode: card.originalErrorCode,
          });
        else if (card.kind === 'method') {
          p.threeDS = {
            version: 2,
            step: 'method',
            methodUrl: `${base}/checkout/3ds/${p.session}/method`,
            tdsMethodContent: `<form method="post" action="${base}/acs/method/${p.session}"><input type="hidden" name="threeDSMethodData" value="x"></form><script>document.forms[0].submit()</script>`,
            txId: `tx-${reference}`,
            transactionId: `tx-${reference}`,
            confirmUrl: `${base}/checkout/payments/${reference}/3dsv2/confirm`,
          };
        } else if (card.kind === 'challenge') p.threeDS = challengeAction(p);
        else if (card.kind === 'v1') {
          p.threeDS = {
            version: 1,
            acsUrl: `${base}/acs/v1`,
            paReq: `pareq-${p.session}`,
            md: `tx-${reference}`,
            termUrl: `${callbackBase(p)}/checkout/3ds/${p.session}/term`,
            callbackOrigin: callbackOrigin(p),
          };
        }
        return json(200, { ...state(p), clientSecret: clientSecretFor(reference) });
      }
      if (
        (m = /^\/checkout\/payments\/([^/]+)\/3dsv2\/confirm$/.exec(path)) &&
        req.method === 'POST'
      ) {
        const p = payments.get(m[1]);
        if (!p || !ownsPayment(req, p.reference)) return notFound(p);
        p.step2ConfirmAt = Date.now();
        if (p.card.then === 'frictionless' && p.methodReceivedAt) p.status = 'approved';
        else if (p.card.then === 'fail') finish(p, 'fail');
        else p.threeDS = challengeAction(p);
        return json(200, state(p));
      }
      // The shopper closed the bank check: a decided payment answers its state; one still waiting ends uncharged.
      if ((m = /^\/checkout\/payments\/([^/]+)\/cancel$/.exec(path)) && req.method === 'POST') {
        const p = payments.get(m[1]);
        if (!p || !ownsPayment(req, p.reference)) return notFound(p);
        p.cancels = (p.cancels ?? 0) + 1;
        if (p.status === 'authenticating')
          Object.assign(p, { status: 'failed', code: 'authentication_cancelled' });
        return json(200, state(p));
      }
      if ((m = /^\/checkout\/payments\/([^/]+)$/.exec(path)) && req.method === 'GET') {
        const p = payments.get(m[1]);
        if (!p || !ownsPayment(req, p.reference)) return notFound(p);
        p.reads = (p.reads ?? 0) + 1;
        return json(200, state(p));
      }
      if ((m = /^\/checkout\/(hosted|eft|redirect)$/.exec(path)) && req.method === 'POST') {
        counter += 1;
        return json(200, {
          success: true,
          reference: `ref-${counter}`,
          redirectUrl: `${base}/pay/${m[1]}/ref-${counter}`,
          clientSecret: clientSecretFor(`ref-${counter}`),
        });
      }
      if ((m = /^\/checkout\/3ds\/([^/]+)\/method$/.exec(path)) && req.method === 'GET') {
        const p = sessions.get(m[1]);
        p.methodServedAt = Date.now();
        return html(p.threeDS.tdsMethodContent);
      }
      if ((m = /^\/acs\/method\/([^/]+)$/.exec(path)) && req.method === 'POST') {
        const p = sessions.get(m[1]);
        p.methodReceivedAt = Date.now();
        return html(page('<p>method</p>'));
      }
      if (path === '/acs/v2' && req.method === 'POST') {
        const form = await body(req);
        const p = sessions.get(form.threeDSSessionData);
        p.acsForm = form;
        p.acsPosts = (p.acsPosts ?? 0) + 1;
        return html(acsPage(p, `${callbackBase(p)}/checkout/3ds/${p.session}/callback`, 'cres'));
      }
      if (path === '/acs/v1' && req.method === 'POST') {
        const form = await body(req);
        const p = [...sessions.values()].find((s) => s.threeDS?.paReq === form.PaReq);
        p.acsForm = form;
        p.acsPosts = (p.acsPosts ?? 0) + 1;
        return html(acsPage(p, form.TermUrl, 'PaRes'));
      }
      if ((m = /^\/checkout\/3ds\/([^/]+)\/(callback|term)$/.exec(path)) && req.method === 'POST') {
        const p = sessions.get(m[1]);
        await body(req);
        p.completionServedAt = Date.now();
        if (p.status === 'authenticating') finish(p, p.card.outcome);
        return html(completePage(p));
      }
      // Test helpers: a page on the right origin that posts a completion from the wrong frame.
      if (path === '/_test/post' && req.method === 'GET') {
        const reference = url.searchParams.get('reference');
        const target = url.searchParams.get('target');
        return html(
          page(
            `<script>parent.postMessage({ source: 'pg-checkout', type: '3ds-complete', reference: ${JSON.stringify(reference)} }, ${JSON.stringify(target)});</script>`,
          ),
        );
      }
      // The gateway deciding a held payment behind the bank page's back (no completion page follows).
      if ((m = /^\/_test\/payments\/([^/]+)\/finish$/.exec(path)) && req.method === 'POST') {
        const p = payments.get(m[1]);
        if (!p) return json(404, {});
        finish(p, url.searchParams.get('outcome') ?? 'approve');
        return json(200, { success: true });
      }
      if ((m = /^\/_test\/payments\/([^/]+)$/.exec(path))) {
        const p = payments.get(m[1]);
        return json(
          p ? 200 : 404,
          p ? { ...p, card: p.card, request: { ...p.request, card: '[card]' } } : {},
        );
      }
      return json(404, { success: false, message: 'Not found', code: 'not_found' });
    } catch (error) {
      return json(500, {
        success: false,
        message: 'Mock backend error',
        code: 'internal',
        detail: String(error),
      });
    }
  };

  const server = createServer(handle);
  // The same handler on a second port: another origin, like a publicUrl on another host than the page's.
  const publicServer = createServer(handle);
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  await new Promise((resolve) => publicServer.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${server.address().port}`;
  publicBase = `http://127.0.0.1:${publicServer.address().port}`;
  return {
    url: base,
    publicUrl: publicBase,
    endpoint: `${base}/checkout`,
    close: () =>
      Promise.all(
        [server, publicServer].map(
          (s) =>
            new Promise((resolve) => {
              s.closeAllConnections();
              s.close(() => resolve());
            }),
        ),
      ),
  };
}
