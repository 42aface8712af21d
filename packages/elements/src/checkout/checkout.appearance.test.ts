import { expect, fixture, html } from '@open-wc/testing';
import { emulateMedia } from '@web/test-runner-commands';
import type { PgCardForm } from '../card-form/card-form.component.js';
import '../card-form/card-form.js';
import './checkout.js';
import type { PgCheckout } from './checkout.component.js';

/** WCAG contrast between two `rgb()` colours. */
function contrast(a: string, b: string): number {
  const l = (colour: string) => {
    const [r, g, bl] = colour.match(/[\d.]+/g)!.map(Number);
    const lin = (c: number) => ((c /= 255) <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
    return 0.2126 * lin(r!) + 0.7152 * lin(g!) + 0.0722 * lin(bl!);
  };
  const [hi, lo] = [l(a), l(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
}

async function labelOn(background: string): Promise<string> {
  const page = await fixture<HTMLDivElement>(
    html`<div style="background:${background};padding:8px">
      <pg-checkout appearance="auto"></pg-checkout>
    </div>`,
  );
  const el = page.querySelector('pg-checkout') as PgCheckout;
  await el.updateComplete;
  const form = el.shadowRoot!.querySelector('pg-card-form') as PgCardForm;
  await form.updateComplete;
  return getComputedStyle(form.shadowRoot!.querySelector('label')!).color;
}

// appearance="auto" reads the page it sits on, not only the system setting.
describe('<pg-checkout appearance="auto">', () => {
  // Firefox's WebDriver BiDi driver cannot emulate the media feature (the Chromium run checks it).
  const emulates = !navigator.userAgent.includes('Firefox');
  after(async () => {
    if (emulates) await emulateMedia({ colorScheme: 'light' });
  });

  it('is light on a light page when the system is dark', async function (this: { skip(): void }) {
    if (!emulates) this.skip();
    await emulateMedia({ colorScheme: 'dark' });
    const white = 'rgb(255, 255, 255)';
    expect(contrast(await labelOn(white), white)).to.be.at.least(4.5);
  });

  it('is dark on a dark page when the system is light', async () => {
    if (emulates) await emulateMedia({ colorScheme: 'light' });
    const night = 'rgb(22, 20, 15)';
    expect(contrast(await labelOn(night), night)).to.be.at.least(4.5);
  });

  it('follows the page when it changes to dark by color-scheme alone (no background of its own)', async () => {
    if (emulates) await emulateMedia({ colorScheme: 'light' });
    const root = document.documentElement;
    root.style.colorScheme = 'dark';
    try {
      const el = await fixture<PgCheckout>(html`<pg-checkout appearance="auto"></pg-checkout>`);
      expect(el.getAttribute('data-scheme')).to.equal('dark');
    } finally {
      root.style.colorScheme = '';
    }
  });
});
