import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';

/** Where the demo shop listens and its back office's password. */
export interface ShopAccess {
  url: string;
  adminPassword: string;
}

/** Opens the demo's back office in the page, signing in first when asked to. */
export async function signInToBackOffice(page: Page, shop: ShopAccess): Promise<void> {
  await page.goto(`${shop.url}/admin`);
  if (new URL(page.url()).pathname === '/admin/login') {
    await page.getByLabel('Password').fill(shop.adminPassword);
    await page.getByRole('button', { name: 'Sign in' }).click();
  }
  await page.getByRole('heading', { name: 'Back office', exact: true }).waitFor();
}

export interface AdminSession {
  /** The Cookie header to send (the session cookie only). */
  cookie: string;
  /** The CSRF token the back office's forms carry. */
  csrf: string;
}

/** The `name=value` part of each Set-Cookie header of a response. */
export function cookiesOf(res: Response): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of res.headers.getSetCookie()) {
    const [pair] = line.split(';');
    const at = pair!.indexOf('=');
    out.set(pair!.slice(0, at).trim(), pair!.slice(at + 1).trim());
  }
  return out;
}

/** The CSRF token in a back-office page's forms. */
export function csrfIn(html: string): string {
  const match = /name="_csrf" value="([^"]+)"/.exec(html);
  assert.ok(match, 'the back-office page carries a CSRF token in its forms');
  return match[1]!;
}

/** Signs in over HTTP as a script would, returning the session cookie and the page's CSRF token. */
export async function adminSession(shop: ShopAccess): Promise<AdminSession> {
  const login = await fetch(`${shop.url}/admin/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ password: shop.adminPassword }),
    redirect: 'manual',
  });
  assert.equal(login.status, 303, 'the right password signs in');
  const [name, value] = [...cookiesOf(login)].find(([n]) => n === 'demo_admin') ?? [];
  assert.ok(name && value, 'signing in sets the demo_admin session cookie');
  const cookie = `${name}=${value}`;
  const page = await fetch(`${shop.url}/admin`, { headers: { cookie } });
  assert.equal(page.status, 200);
  return { cookie, csrf: csrfIn(await page.text()) };
}

/**
 * The hidden fields of the back office's form for a payment (`execute` or `refund`) as the page drew
 * it: the CSRF token, the form's idempotency key, and the currency of a refund.
 */
export function formFields(
  html: string,
  reference: string,
  action: 'execute' | 'refund',
): Record<string, string> {
  const start = html.indexOf(`action="/admin/payments/${reference}/${action}"`);
  assert.ok(start >= 0, `the back office draws the ${action} form of ${reference}`);
  const form = html.slice(start, html.indexOf('</form>', start));
  const fields: Record<string, string> = {};
  for (const m of form.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g))
    fields[m[1]!] = m[2]!;
  return fields;
}

/** Posts a back-office form as the browser would, answering the notice the next page shows. */
export async function submitForm(
  shopUrl: string,
  session: AdminSession,
  path: string,
  fields: Record<string, string>,
): Promise<number> {
  const res = await fetch(shopUrl + path, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: session.cookie },
    body: new URLSearchParams(fields),
    redirect: 'manual',
  });
  return res.status;
}

/** The back office's page as the signed-in session sees it. */
export async function backOfficePage(shopUrl: string, session: AdminSession): Promise<string> {
  const res = await fetch(`${shopUrl}/admin`, { headers: { cookie: session.cookie } });
  assert.equal(res.status, 200);
  return res.text();
}

/** The orders the back office lists: reference, status and total, and how many there are. */
export function ordersIn(html: string): {
  count: number;
  orders: { reference: string; status: string; row: string }[];
} {
  const count = Number(/data-order-count="(\d+)"/.exec(html)?.[1] ?? NaN);
  const orders = [...html.matchAll(/<tr data-order="([^"]+)">([\s\S]*?)<\/tr>/g)].map((m) => ({
    reference: m[1]!,
    status: /data-order-status="([^"]+)"/.exec(m[2]!)?.[1] ?? '',
    row: m[2]!.replace(/\s+/g, ' '),
  }));
  return { count, orders };
}
