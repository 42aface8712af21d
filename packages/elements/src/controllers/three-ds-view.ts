import { html, nothing } from 'lit';
import { keyed } from 'lit/directives/keyed.js';
import type { ThreeDSAction } from '../api/types.js';
import type { ThreeDSFlowController } from './three-ds-flow.js';

type Flow = ThreeDSFlowController<ThreeDSAction>;

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
  const seconds = flow.timeoutWarning;
  return seconds ? flow.localize.t('challengeTimeoutWarning', { seconds }) : '';
}

function renderChallenge(flow: Flow) {
  if (flow.phase !== 'challenge') return nothing;
  const { localize, challengeWindow: size } = flow;
  return html`<div
    part="challenge"
    class="challenge"
    data-window-size=${size.code}
    tabindex="-1"
    @keydown=${(event: KeyboardEvent) => flow.onChallengeKeydown(event)}
  >
    <div class="timeout">
      ${flow.checkout ? html`<p role="status">${timeoutText(flow) || nothing}</p>` : nothing}
      ${
        flow.timeoutWarning
          ? html`<button
              part="more-time"
              class="secondary"
              type="button"
              @click=${() => flow.moreTime()}
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
      flow.bankLoaded
        ? nothing
        : html`<span class="loading" aria-hidden="true"><span class="spinner"></span></span>`
    }
    ${keyed(
      flow.frameName,
      html`<iframe
        part="frame"
        name=${flow.frameName}
        title=${localize.t('challengeTitle')}
        width=${size.width ?? '100%'}
        height=${size.height ?? '100%'}
      ></iframe>`,
    )}
  </div>`;
}
