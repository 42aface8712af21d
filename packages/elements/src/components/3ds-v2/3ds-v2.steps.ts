import type { ThreeDSAction, ThreeDSV2Action } from '../../api/types.js';
import type { ChallengeRequest, ThreeDSVersion } from '../../controllers/three-ds-flow.js';
import { createPg3dsStartEvent } from '../../events/3ds-start.js';
import { methodPosted } from '../../internal/method-posted.js';
import { sleep } from '../../internal/sleep.js';

/** Longest wait for the method form to reach the bank once the frame loaded. */
const METHOD_POST_LIMIT_MS = 2_000;

/** Longest wait for the method frame's load event before carrying on without it. */
const METHOD_LOAD_LIMIT_MS = 10_000;

/** The challenge to post, from a v2 challenge action (a status read's too, when one is posted again). */
function challengeRequest(action: ThreeDSAction): ChallengeRequest | undefined {
  if (action.version !== 2 || action.step !== 'challenge') return undefined;
  return {
    acsUrl: action.acsUrl,
    fields: { creq: action.creq, threeDSSessionData: action.threeDSSessionData },
    callbackOrigin: action.callbackOrigin,
  };
}

/**
 * 3-D Secure 2: the hidden method step (its content in a frame, Step 2 confirm `methodTimeout()` ms after
 * it loaded), then the challenge the confirm asks for.
 */
export function threeDSV2(methodTimeout: () => number): ThreeDSVersion<ThreeDSV2Action> {
  return {
    version: 2,
    challengeRequest,
    async before(flow, reference, action, signal) {
      if (action.step !== 'method') return action;
      const { host, clock } = flow;
      const wait = methodTimeout();
      const loaded = flow.showMethod(
        action.methodUrl ? { src: action.methodUrl } : { srcdoc: action.tdsMethodContent },
      );
      host.dispatchEvent(createPg3dsStartEvent({ reference, version: 2, step: 'method' }));
      // A frame that never loads (blocked, offline) must not hold the payment: go on without it.
      await Promise.race([loaded, sleep(Math.max(METHOD_LOAD_LIMIT_MS, wait), signal, clock)]);
      const frame = host.renderRoot.querySelector<HTMLIFrameElement>('iframe[part=method-frame]');
      if (frame) await methodPosted(frame, METHOD_POST_LIMIT_MS, signal);
      // The wait is the gateway's: a method step that is slow or silent means "continue", not an error.
      await sleep(wait, signal, clock);
      if (signal.aborted) return flow.failure(reference, 'aborted', 'failed');
      const answer = await flow.api.confirmMethodAt(action.confirmUrl, reference);
      flow.setView({ phase: 'idle', methodSource: undefined });
      return answer.status === 'authenticating'
        ? answer.threeDS
        : flow.finalState(answer, reference);
    },
  };
}
