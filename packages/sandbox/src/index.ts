export { createSandbox, DEFAULT_SECRET, DEFAULT_TOKEN } from './sandbox.js';
export type {
  FailureStatus,
  FaultKind,
  FaultOptions,
  Logger,
  Sandbox,
  SandboxChoices,
  SandboxOptions,
  SandboxProfile,
} from './sandbox.js';
export { TEST_CARDS } from './internal/test-cards.js';
export type { Behaviour, CardType, TestCard } from './internal/test-cards.js';
export { TRANSITIONS } from './internal/state-machine.js';
export type { Status } from './internal/types.js';
export { computeSignature } from './internal/signature.js';
export { testCards } from './test-cards.js';
export type { PublicTestCard } from './test-cards.js';
export { PROFILE_CHOICES } from './internal/choices.js';
export { seededRandom } from './internal/random.js';
