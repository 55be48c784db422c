export {
  startSandboxProvider,
  SandboxConfigError,
  type SandboxProvider,
  type SandboxProviderOptions,
} from './sandbox-provider';
export { SandboxError, type SandboxErrorCode } from './errors';
export { SandboxDbError } from './sandbox-db';
export {
  callbackPayload,
  DEFAULT_CALLBACK_RETRY_DELAYS_MS,
  DEFAULT_REORDER_WINDOW_MS,
  type CallbackPayload,
} from './callback-dispatcher';
export { DEFAULT_TIMEOUT_HOLD_MS, NO_FAULTS, type FaultPatch, type FaultSettings } from './faults';
export {
  DEFAULT_PERSONALITY,
  PERSONALITY_CHOICES,
  PERSONALITY_KEYS,
  parsePersonalityFlag,
  parsePersonalityPatch,
  type Personality,
  type PersonalityKey,
} from './personality';
export { SERVED_FAULT_KINDS, type ServedCounts, type ServedFaultKind } from './served-faults';
export { DEFAULT_PAGE_LIMIT, MAX_PAGE_LIMIT } from './provider-api';
export { MAX_EXPIERS_IN_MINUTES } from './create-account-request';
export { MAX_PENDING_MS } from './sandbox-engine';
export { MAX_RESEND_COPIES } from './control-api';
export { SANDBOX_BANK_NAME, sandboxStartLine, type SandboxStartLine } from './provider-answers';
