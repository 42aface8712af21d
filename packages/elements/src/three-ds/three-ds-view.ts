import { html, nothing } from 'lit';
import { keyed } from 'lit/directives/keyed.js';
import type { ThreeDSFlowController as Flow } from './three-ds-flow.js';

/** What `<pg-3ds-v2>` and `<pg-3ds-v1>` render for their flow: a status line, the method frame, the challenge. */
export function renderThreeDS(flow: Flow) {
  const { phase, localize } = flow;
  // Inside the drop-in, its own region (in the tree from its first render) speaks for each step.
  if (flow.checkout) return html`${renderMethodFrame(flow)}${renderChallenge(flow)}`;
  const checking = phase === 'method' || phase === 'resuming';
  const warning = timeoutText(flow);
  const status = checking
    ? localize.t('authenticating')
    : phase === 'challenge'
      ? warning || localize.t('challengeAnnouncement')
      : '';
  // One region, always in the tree (never hidden) so screen readers announce what is put in it.
  // prettier-ignore
  return html`<div part="status" class="status ${phase === 'challenge' && !warning ? 'visually-hidden' : ''}" role="status" lang=${localize.locale}>${checking ? html`<span class="spinner" aria-hidden="true"></span>` : nothing}${status || nothing}</div>
      ${renderMethodFrame(flow)}${renderChallenge(flow)}`;
}

function renderMethodFrame(flow: Flow) {
  const source = flow.methodSource;
  if (flow.phase !== 'method' || !source) return nothing;
  return html`<iframe
    class="method"
    part="method-frame"
    title=${flow.localize.t('authenticating')}
    aria-hidden="true"
    tabindex="-1"
    src=${source.src ?? nothing}
    .srcdoc=${source.srcdoc ?? nothing}
    @load=${() => flow.onMethodLoad()}
  ></iframe>`;
}

/** The warning before the challenge times out, or '' while there is time. */
function timeoutText(flow: Flow): string {
  const seconds = flow.frame.timeoutWarning;
  return seconds ? flow.localize.t('challengeTimeoutWarning', { seconds }) : '';
}

function renderChallenge(flow: Flow) {
  if (flow.phase !== 'challenge') return nothing;
  const { localize, frame } = flow;
  const size = frame.window;
  return html`<div
    part="challenge"
    class="challenge"
    data-window-size=${size.code}
    tabindex="-1"
    @keydown=${(event: KeyboardEvent) => onChallengeKeydown(flow, event)}
  >
    <div class="timeout">
      ${flow.checkout ? html`<p role="status">${timeoutText(flow) || nothing}</p>` : nothing}
      ${
        frame.timeoutWarning
          ? html`<button
              part="more-time"
              class="secondary"
              type="button"
              @click=${() => frame.moreTime()}
            >
              ${localize.t('challengeMoreTime')}
            </button>`
          : nothing
      }
    </div>
    <button
      part="cancel"
      class="close"
      type="button"
      aria-label=${localize.t('cancelChallenge')}
      title=${localize.t('cancelChallenge')}
      @click=${() => flow.cancel()}
    >
      <svg viewBox="0 0 16 16" width="16" height="16" aria-hidden="true" focusable="false">
        <path
          d="M3 3l10 10M13 3L3 13"
          stroke="currentColor"
          stroke-width="2"
          stroke-linecap="round"
        />
      </svg>
    </button>
    ${
      frame.bankLoaded
        ? nothing
        : html`<span class="loading" aria-hidden="true"><span class="spinner"></span></span>`
    }
    ${keyed(
      frame.name,
      html`<iframe
        part="frame"
        name=${frame.name}
        title=${localize.t('challengeTitle')}
        width=${size.width ?? '100%'}
        height=${size.height ?? '100%'}
      ></iframe>`,
    )}
  </div>`;
}

/** Escape cancels the bank check, wherever focus is in the element (a cross-origin page keeps its keys). */
function onChallengeKeydown(flow: Flow, event: KeyboardEvent): void {
  if (flow.phase !== 'challenge') return;
  if (event.key === 'Escape') {
    event.preventDefault();
    flow.cancel();
    return;
  }
  // A Tab seen here while the frame element has focus never reached the bank's page (WebKit keeps keys
  // with the parent): step back to the control before the frame so this Tab goes into the page.
  const root = flow.host.renderRoot as ShadowRoot;
  if (event.key === 'Tab' && !event.shiftKey && root.activeElement?.localName === 'iframe')
    root.querySelector<HTMLElement>('[part=cancel]')?.focus();
}
