export {
  CallbackUrlError,
  callbackUrlFor,
  decideCallbackRoute,
  publicUrlProblem,
  type CallbackRoute,
  type CallbackRouteInput,
  type CallbackUrlErrorCode,
} from './callback-url';
export {
  DEFAULT_SELF_TEST_TIMEOUT_MS,
  SELF_TEST_ACTIONS,
  SELF_TEST_FIELD,
  createCallbackSelfTester,
  selfTestBody,
  selfTestNonceOf,
  type CallbackSelfTester,
  type CallbackSelfTesterOptions,
} from './callback-self-test';
export {
  DEFAULT_CONNECT_TIMEOUT_MS,
  createNgrokDriver,
  mapNgrokError,
  validateTunnelOptions,
  type NgrokDriverOptions,
} from './ngrok-driver';
export {
  DEFAULT_RECONNECT_DELAYS_MS,
  createTunnelManager,
  type ScheduleFn,
  type TunnelManager,
  type TunnelManagerOptions,
} from './tunnel-manager';
export {
  TunnelError,
  type TunnelConnectOptions,
  type TunnelDriver,
  type TunnelErrorCode,
  type TunnelEvent,
  type TunnelSession,
  type TunnelStatus,
} from './types';
