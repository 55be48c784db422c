import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { AppError } from '#shared/errors';

/**
 * scrypt (RFC 7914) from Node's crypto. N = 2^15, r = 8, p = 1 costs 32 MiB and about 50-100 ms
 * per try on a shop PC: unnoticed at sign-in, and it makes guessing a stolen file's 4-12 digit
 * PINs slow; the lock-out guards the live till.
 */
export interface PinKdfParams {
  readonly N: number;
  readonly r: number;
  readonly p: number;
  readonly keyLength: number;
  readonly saltLength: number;
}

export const PIN_KDF: PinKdfParams = Object.freeze({
  N: 2 ** 15,
  r: 8,
  p: 1,
  keyLength: 32,
  saltLength: 16,
});

/** The stored form: `scrypt$N=32768,r=8,p=1$<salt base64>$<key base64>`. */
const HASH_PATTERN =
  /^scrypt\$N=(\d+),r=(\d+),p=(\d+)\$([A-Za-z0-9+/]+={0,2})\$([A-Za-z0-9+/]+={0,2})$/;
/** Bounds on parameters read back from a file, so that an edited file cannot hang the till. */
const MAX_N = 2 ** 20;
const MAX_R = 32;
const MAX_P = 4;

export class PinHashError extends AppError<'PIN_HASH_UNREADABLE'> {
  constructor(message: string) {
    super('PIN_HASH_UNREADABLE', message);
    this.name = 'PinHashError';
  }
}

function derive(pin: string, salt: Buffer, params: Omit<PinKdfParams, 'saltLength'>) {
  const options: ScryptOptions = {
    N: params.N,
    r: params.r,
    p: params.p,
    // Node refuses 128 * N * r above maxmem (32 MiB by default, exactly our cost): leave room.
    maxmem: 256 * params.N * params.r,
  };
  return new Promise<Buffer>((resolve, reject) => {
    scrypt(pin.normalize('NFKC'), salt, params.keyLength, options, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

/** A salted hash of a PIN, in the stored form. A fresh random salt every time. */
export async function hashPin(pin: string, params: PinKdfParams = PIN_KDF): Promise<string> {
  const salt = randomBytes(params.saltLength);
  const key = await derive(pin, salt, params);
  return `scrypt$N=${params.N},r=${params.r},p=${params.p}$${salt.toString('base64')}$${key.toString('base64')}`;
}

interface ParsedHash {
  readonly N: number;
  readonly r: number;
  readonly p: number;
  readonly salt: Buffer;
  readonly key: Buffer;
}

function parseHash(stored: string): ParsedHash {
  const match = HASH_PATTERN.exec(stored);
  if (!match) throw new PinHashError('The stored PIN is not in a known format.');
  const [N, r, p] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const salt = Buffer.from(match[4] ?? '', 'base64');
  const key = Buffer.from(match[5] ?? '', 'base64');
  const powerOfTwo = N > 1 && (N & (N - 1)) === 0;
  if (!powerOfTwo || N > MAX_N || r < 1 || r > MAX_R || p < 1 || p > MAX_P) {
    throw new PinHashError('The stored PIN has parameters outside the accepted range.');
  }
  if (salt.length < 8 || key.length < 16) {
    throw new PinHashError('The stored PIN is too short to be a real hash.');
  }
  return { N, r, p, salt, key };
}

/** Whether a stored hash can be read at all (checked when the file is loaded). */
export function isPinHash(stored: string): boolean {
  try {
    parseHash(stored);
    return true;
  } catch {
    return false;
  }
}

/** Whether `pin` matches the stored hash; the keys are compared in constant time. */
export async function verifyPin(pin: string, stored: string): Promise<boolean> {
  const parsed = parseHash(stored);
  const key = await derive(pin, parsed.salt, {
    N: parsed.N,
    r: parsed.r,
    p: parsed.p,
    keyLength: parsed.key.length,
  });
  return timingSafeEqual(key, parsed.key);
}
