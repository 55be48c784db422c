import { AppError, type AppErrorCode } from '#shared/errors';

/**
 * A secret box turns a secret into bytes that are safe to put on disk and back. The desktop uses
 * Electron's safeStorage (the OS keychain); the browser shell and the tests use a key file,
 * named as such so nobody mistakes it for the keychain.
 */

export type SecretBoxKind = 'os-keychain' | 'os-plaintext-fallback' | 'file-key';

export interface SecretBox {
  readonly kind: SecretBoxKind;
  /** Plain words for the settings screen: where the key lives and who can read the secrets. */
  readonly description: string;
  encrypt(plain: string): Buffer;
  /** Throws SecretBoxError, never returns garbage. */
  decrypt(cipher: Buffer): string;
}

export type SecretBoxErrorCode = Extract<
  AppErrorCode,
  /** The ciphertext was changed, or was made with another key. */
  | 'DECRYPT_FAILED'
  /** Not something this box wrote (too short, unknown format version). */
  | 'CIPHERTEXT_MALFORMED'
  /** The key file exists but is not a key (wrong size). */
  | 'KEY_INVALID'
  /** The OS cannot encrypt right now (no keychain, or called before the app was ready). */
  | 'UNAVAILABLE'
  | 'ENCRYPT_FAILED'
>;

export class SecretBoxError extends AppError<SecretBoxErrorCode> {
  constructor(code: SecretBoxErrorCode, message: string, options: { cause?: unknown } = {}) {
    super(code, message, options);
    this.name = 'SecretBoxError';
  }
}
