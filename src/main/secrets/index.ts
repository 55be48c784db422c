export { SECRET_BOX_KEY_FILE, createFileSecretBox } from './file-secret-box';
export {
  SecretBoxError,
  type SecretBox,
  type SecretBoxErrorCode,
  type SecretBoxKind,
} from './secret-box';
export {
  PROVIDER_SECRET_NAMES,
  SECRETS_FILE,
  SECRET_MAX_LENGTH,
  SECRET_MIN_LENGTH,
  SECRET_NAMES,
  SecretValidationError,
  createSecretStore,
  normalizeSecret,
  type ProviderSecretName,
  type SecretName,
  type SecretNameIn,
  type SecretScope,
  type SecretStatus,
  type SecretStore,
  type SecretStoreOptions,
  type SecretsDescription,
  type SecretsFileRecovery,
  type UnreadableSecret,
} from './secret-store';
