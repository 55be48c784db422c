/**
 * The file-key secret box: AES-256-GCM with a random 256-bit key kept next to the data, in
 * <dataDir>/secret-box.key (mode 0600, created once). It keeps secrets out of plain sight and
 * detects tampering, but it is not a keychain: the key sits beside the ciphertexts.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SecretBoxError, type SecretBox } from './secret-box';

export const SECRET_BOX_KEY_FILE = 'secret-box.key';

const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
/** First byte of every ciphertext, so a later format can be told apart. */
const FORMAT_V1 = 1;
const HEADER_BYTES = 1 + IV_BYTES + TAG_BYTES;
/** Binds ciphertexts to this box's purpose (GCM additional data). */
const AAD = Buffer.from('transfer-till/file-secret-box/v1', 'utf8');

function loadOrCreateKey(path: string): Buffer {
  const fresh = randomBytes(KEY_BYTES);
  try {
    // 'wx': create only if absent, so two processes starting together cannot both make a key.
    writeFileSync(path, fresh, { flag: 'wx', mode: 0o600 });
    return fresh;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const key = readFileSync(path);
  // A key file copied in with looser permissions is tightened (no effect on Windows).
  chmodSync(path, 0o600);
  if (key.length !== KEY_BYTES) {
    throw new SecretBoxError(
      'KEY_INVALID',
      `The key file ${path} is damaged (${key.length} bytes instead of ${KEY_BYTES}). Secrets saved with it cannot be read; move the file away and enter the keys again.`,
    );
  }
  return key;
}

export function createFileSecretBox(dataDir: string): SecretBox {
  mkdirSync(dataDir, { recursive: true });
  const keyPath = join(dataDir, SECRET_BOX_KEY_FILE);
  const key = loadOrCreateKey(keyPath);

  return {
    kind: 'file-key',
    description: `Secrets are encrypted with a key file kept in the data folder (${keyPath}). This is not the operating system's keychain: anyone who can read the data folder can read the secrets. Keep the folder private to this user account.`,
    encrypt(plain) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(AAD);
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return Buffer.concat([Buffer.from([FORMAT_V1]), iv, cipher.getAuthTag(), body]);
    },
    decrypt(data) {
      if (data.length < HEADER_BYTES || data[0] !== FORMAT_V1) {
        throw new SecretBoxError(
          'CIPHERTEXT_MALFORMED',
          'This is not a secret saved by the file-key box (unknown format).',
        );
      }
      const iv = data.subarray(1, 1 + IV_BYTES);
      const tag = data.subarray(1 + IV_BYTES, HEADER_BYTES);
      const decipher = createDecipheriv('aes-256-gcm', key, iv);
      decipher.setAAD(AAD);
      decipher.setAuthTag(tag);
      try {
        const plain = Buffer.concat([
          decipher.update(data.subarray(HEADER_BYTES)),
          decipher.final(),
        ]);
        return new TextDecoder('utf-8', { fatal: true }).decode(plain);
      } catch (error) {
        throw new SecretBoxError(
          'DECRYPT_FAILED',
          `The secret could not be decrypted: it was changed, or it was saved with another key than ${keyPath}.`,
          { cause: error },
        );
      }
    },
  };
}
