import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import type { Shop } from './shop.js';

/** Opens the demo's back office in the page, signing in first when asked to. */
export async function signInToBackOffice(page: Page, shop: Shop): Promise<void> {
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
export async function adminSession(shop: Shop): Promise<AdminSession> {
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
