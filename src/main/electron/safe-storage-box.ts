/**
 * The desktop secret box: Electron's safeStorage, which keeps its key in the OS keychain
 * (Keychain on macOS, DPAPI on Windows, libsecret or KWallet on Linux). On Linux without a
 * keyring it silently falls back to a fixed built-in key ('basic_text'); that is reported as its
 * own kind so the settings screen can say the secrets are not really protected.
 */
import { safeStorage } from 'electron';
import { createFileSecretBox } from '#main/secrets/file-secret-box';
import { SecretBoxError, type SecretBox } from '#main/secrets/secret-box';

/** The part of Electron's safeStorage used here. */
export type SafeStorageApi = Pick<
  Electron.SafeStorage,
  'isEncryptionAvailable' | 'encryptString' | 'decryptString' | 'getSelectedStorageBackend'
>;

const OS_KEYCHAIN_NAME: Readonly<Partial<Record<NodeJS.Platform, string>>> = {
  darwin: 'the macOS Keychain',
  win32: 'Windows (DPAPI, tied to your Windows account)',
  linux: 'the desktop keyring',
};

/** Call after app 'ready'. Throws SecretBoxError 'UNAVAILABLE' when the OS cannot encrypt. */
export function createSafeStorageBox(
  api: SafeStorageApi = safeStorage,
  platform: NodeJS.Platform = process.platform,
): SecretBox {
  if (!api.isEncryptionAvailable()) {
    throw new SecretBoxError(
      'UNAVAILABLE',
      'The operating system cannot encrypt secrets right now (no keychain is available).',
    );
  }
  const backend = platform === 'linux' ? api.getSelectedStorageBackend() : undefined;
  const plaintextFallback = backend === 'basic_text';
  const where =
    platform === 'linux' && backend
      ? `${backend} on Linux`
      : (OS_KEYCHAIN_NAME[platform] ?? platform);

  return {
    kind: plaintextFallback ? 'os-plaintext-fallback' : 'os-keychain',
    description: plaintextFallback
      ? 'No desktop keyring (GNOME Keyring or KWallet) is running, so Electron protects the secrets with a fixed built-in key: anyone who can read the data folder can read them. Install or unlock a keyring, restart the app and enter the keys again.'
      : `Secrets are encrypted with a key held by ${where}; other user accounts cannot read them.`,
    encrypt(plain) {
      try {
        return api.encryptString(plain);
      } catch (error) {
        throw new SecretBoxError(
          'ENCRYPT_FAILED',
          'The operating system could not encrypt the secret.',
          {
            cause: error,
          },
        );
      }
    },
    decrypt(cipher) {
      try {
        return api.decryptString(cipher);
      } catch (error) {
        throw new SecretBoxError(
          'DECRYPT_FAILED',
          'The operating system could not decrypt the secret (the keychain changed, or the file was changed).',
          { cause: error },
        );
      }
    },
  };
}

/**
 * The box the desktop app uses: safeStorage when the OS can encrypt, else the file-key box in
 * the data folder (its kind and description say so, and the settings screen shows them).
 */
export function openDesktopSecretBox(dataDir: string): SecretBox {
  try {
    return createSafeStorageBox();
  } catch (error) {
    if (error instanceof SecretBoxError && error.code === 'UNAVAILABLE') {
      return createFileSecretBox(dataDir);
    }
    throw error;
  }
}
