export {
  classifyContentType,
  extractHint,
  parseCallbackBody,
  type BodyKind,
  type MalformedReason,
  type ParsedCallback,
} from './callback-parser';
export type {
  CallbackHint,
  CallbackInbox,
  ParseStatus,
  RawCallbackRecord,
  StoredCallback,
} from './types';
export {
  CALLBACK_PATH_PREFIX,
  MIN_CALLBACK_TOKEN_LENGTH,
  STORED_CALLBACK_PATH,
  WEBHOOK_DEFAULTS,
  WebhookListenerError,
  generateCallbackToken,
  isUsableCallbackToken,
  startWebhookListener,
  type WebhookListener,
  type WebhookListenerErrorCode,
  type WebhookListenerOptions,
} from './webhook-listener';
