import { expect, waitUntil } from '@open-wc/testing';
import { en } from '../i18n/en.js';
import { setTable, type Messages } from '../i18n/localize.js';
import { SyntheticHost } from '../test-helpers/host.js';
import { LocalizeController } from './localize-controller.js';

const table = (pay: string): Messages => ({ ...en, pay, approved: `${pay}: approved` });

describe('LocalizeController', () => {
  it("speaks the host's locale with its messages on top", () => {
    const host = new SyntheticHost();
    const localize = new LocalizeController(host);
    host.locale = 'af';
    host.messages = { cancel: 'Los dit' };
    host.update();
    expect(localize.locale).to.equal('af');
    expect(localize.t('pay')).to.equal('Betaal');
    expect(localize.t('cancel')).to.equal('Los dit');
    expect(localize.t('challengeTimeoutWarning', { seconds: 20 })).to.contain('20');
  });

  it('makes its translator again only when locale or messages changed', () => {
    setTable('x1', table('First'));
    const host = new SyntheticHost();
    const localize = new LocalizeController(host);
    host.locale = 'x1';
    host.update();
    expect(localize.t('pay')).to.equal('First');
    // A translator made again would now read the second table: an unchanged host keeps its own.
    setTable('x1', table('Second'));
    host.update();
    expect(localize.t('pay')).to.equal('First');
    host.messages = {};
    host.update();
    expect(localize.t('pay')).to.equal('Second');
  });

  it('renders the host again when a table still loading arrives, and speaks it from then on', async () => {
    let arrive!: (messages: Messages) => void;
    setTable('x2', () => new Promise<Messages>((resolve) => (arrive = resolve)));
    const host = new SyntheticHost();
    const localize = new LocalizeController(host);
    host.locale = 'x2';
    host.connect();
    host.update();
    expect(localize.t('pay'), 'English meanwhile').to.equal(en.pay);
    const before = host.updatesRequested;
    arrive(table('Loaded'));
    await waitUntil(() => host.updatesRequested > before, 'the host renders again');
    host.update();
    expect(localize.t('pay')).to.equal('Loaded');
  });

  it('does not render a disconnected host again when a table arrives', async () => {
    let arrive!: (messages: Messages) => void;
    const loading = new Promise<Messages>((resolve) => (arrive = resolve));
    setTable('x3', () => loading);
    const host = new SyntheticHost();
    const localize = new LocalizeController(host);
    host.locale = 'x3';
    host.connect();
    host.update();
    localize.t('pay');
    host.disconnect();
    arrive(table('Late'));
    await loading;
    await Promise.resolve();
    expect(host.updatesRequested).to.equal(0);
  });

  it('says the outcome in one sentence of the table, never the middleware text', () => {
    const host = new SyntheticHost();
    const localize = new LocalizeController(host);
    host.locale = 'af';
    const declined = localize.outcome({
      success: false,
      status: 'declined',
      reference: 'r1',
      code: 'declined',
      originalErrorCode: 'fin051',
      message: 'Insufficient funds (gateway text)',
    });
    expect(declined).to.equal(localize.t('declinedFunds'));
    const approved = { success: true, status: 'approved', reference: 'r1', message: 'ok' } as const;
    expect(localize.outcome(approved)).to.equal(localize.t('approved'));
  });

  it("speaks as the translator it inherits while there is one (the drop-in's)", () => {
    const host = new SyntheticHost();
    let inherited: ((key: string) => string) | undefined = (key) => `drop-in ${key}`;
    const localize = new LocalizeController(host, { inherit: () => inherited });
    expect(localize.t('pay')).to.equal('drop-in pay');
    inherited = undefined;
    expect(localize.t('pay')).to.equal(en.pay);
  });

  it('writes amounts at once for the usual pairs, and renders again once Intl has an unusual one', async () => {
    const host = new SyntheticHost();
    const localize = new LocalizeController(host);
    expect(localize.amount(14_900, 'ZAR')).to.equal('R\u00a0149,00');
    host.locale = 'de-DE';
    expect(localize.amount(14_900, 'CHF')).to.equal(undefined);
    await waitUntil(() => host.updatesRequested > 0, 'the host renders again');
    expect(localize.amount(14_900, 'CHF')).to.equal(
      new Intl.NumberFormat('de-DE', { style: 'currency', currency: 'CHF' }).format(149),
    );
  });
});
