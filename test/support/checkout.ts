import assert from 'node:assert/strict';
import type { Frame, Page } from 'playwright-core';

/** A future expiry as a shopper types it, e.g. "12/29". */
export const EXPIRY = `12/${String((new Date().getUTCFullYear() + 3) % 100).padStart(2, '0')}`;

export interface CardEntry {
  number: string;
  cvv?: string | undefined;
  holder?: string;
  expiry?: string;
  save?: boolean;
}

/** The checkout element of the page (the first one). */
export const checkout = (page: Page) => page.locator('pg-checkout').first();

/** Types a card into <pg-card-form> the way a shopper would, key by key, then pays. */
export async function payWithCard(page: Page, card: CardEntry): Promise<void> {
  const form = page.locator('pg-card-form').first();
  await form
    .locator('input[autocomplete="cc-number"]')
    .pressSequentially(card.number, { delay: 5 });
  await form.locator('input[autocomplete="cc-name"]').fill(card.holder ?? 'Thandi Nkosi');
  await form
    .locator('input[autocomplete="cc-exp"]')
    .pressSequentially(card.expiry ?? EXPIRY, { delay: 5 });
  await form
    .locator('input[autocomplete="cc-csc"]')
    .pressSequentially(card.cvv ?? '123', { delay: 5 });
  if (card.save) await form.getByRole('checkbox').check();
  await form.locator('button[type="submit"]').click();
}

const FINAL = ':is([status="approved"],[status="declined"],[status="failed"],[status="pending"])';

/** Waits for <pg-checkout status="..."> to reach one of the given final states and returns it. */
export async function finalStatus(page: Page, timeoutMs = 30_000): Promise<string> {
  const el = checkout(page);
  await el.and(page.locator(FINAL)).waitFor({
    timeout: timeoutMs,
  });
  return (await el.getAttribute('status')) ?? '';
}

/** Waits for the bank's access control page (v1 or v2) to appear in a frame of the page. */
export async function acsFrame(page: Page, sandboxUrl: string, timeoutMs = 20_000): Promise<Frame> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    // Pages without the drop-in (the gateway's hosted page) have nothing to end early.
    if (
      (await checkout(page)
        .and(page.locator(FINAL))
        .count()
        .catch(() => 0)) > 0
    )
      assert.fail(
        `the payment ended "${await checkout(page).getAttribute('status')}" before any challenge page: "${await shopperMessage(page)}"`,
      );
    for (const frame of page.frames()) {
      // The v2 method frame is also the bank's and goes away once its step is done, maybe mid-count.
      if (
        frame.url().startsWith(sandboxUrl) &&
        (await frame
          .locator('input[name="otp"]')
          .count()
          .catch(() => 0)) > 0
      )
        return frame;
    }
    await page.waitForTimeout(100);
  }
  assert.fail('the 3-D Secure challenge page did not appear');
}

/** Answers the bank's one-time-code page: a code, or the Cancel button. */
export async function answerChallenge(
  frame: Frame,
  answer: { otp: string } | 'cancel',
): Promise<void> {
  if (answer === 'cancel') {
    await frame.getByRole('button', { name: 'Cancel' }).click();
    return;
  }
  await frame.locator('input[name="otp"]').fill(answer.otp);
  await frame.getByRole('button', { name: 'Submit' }).click();
}

/** The text the drop-in shows the shopper once the payment ended. */
export async function shopperMessage(page: Page): Promise<string> {
  return (await checkout(page).locator('[role="status"], [role="alert"]').allInnerTexts())
    .join(' ')
    .trim();
}
