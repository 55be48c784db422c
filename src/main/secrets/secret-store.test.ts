import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createAppLogger } from '#main/logging/logger';
import { REDACTED, createRedactor } from '#main/logging/redact';
import { SECRET_BOX_KEY_FILE, createFileSecretBox } from './file-secret-box';
import { KeysEnteredElsewhereError } from './key-binding';
import type { SecretBox } from './secret-box';
import {
  SECRETS_FILE,
  SecretValidationError,
  createSecretStore,
  type SecretStore,
} from './secret-store';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'tt-secrets-'));
  dirs.push(dir);
  return dir;
}

const SECRET_KEY = 'sk_live_8c1e4b9a7d2f6e30Q';
const ACCESS_TOKEN = 'eyJhbGciOiJIUzI1NiJ9.payout-token.Zx91';
const STAGING_KEY = 'sk_test_0a9b8c7d6e5fSTG1';
const NGROK = '2abcDEFghiJKLmno_3pqRSTuvWXyz45';

function open(dataDir: string, box: SecretBox = createFileSecretBox(dataDir)): SecretStore {
  return createSecretStore({ dataDir, box, redactor: createRedactor() });
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((name) => join(dir, name))
    .filter((path) => statSync(path).isFile());
}

/** The error of `type` that `run` throws (anything else fails the test). */
function thrownAs<E extends Error>(
  type: abstract new (...args: never[]) => E,
  run: () => unknown,
): E {
  try {
    run();
  } catch (error) {
    if (error instanceof type) return error;
    throw error;
  }
  throw new Error(`expected a ${type.name}`);
}

function validationError(run: () => unknown): SecretValidationError {
  return thrownAs(SecretValidationError, run);
}

function readEntries(dataDir: string): Record<string, { box: string; cipher: string }> {
  const file = JSON.parse(readFileSync(join(dataDir, SECRETS_FILE), 'utf8')) as {
    entries: Record<string, { box: string; cipher: string }>;
  };
  return file.entries;
}

describe('secret store', () => {
  it('round-trips secrets per environment and the global ngrok authtoken, across restarts', () => {
    const dataDir = tempDir();
    const store = open(dataDir);
    expect(store.get('production', 'secretKey')).toBeNull();
    store.set('production', 'secretKey', `  ${SECRET_KEY}\n`);
    store.set('production', 'accessToken', ACCESS_TOKEN);
    store.set('staging', 'secretKey', STAGING_KEY);
    store.set('global', 'ngrokAuthtoken', NGROK);
    expect(store.get('production', 'secretKey')).toBe(SECRET_KEY);

    const reopened = open(dataDir);
    expect(reopened.get('production', 'secretKey')).toBe(SECRET_KEY);
    expect(reopened.get('production', 'accessToken')).toBe(ACCESS_TOKEN);
    expect(reopened.get('staging', 'secretKey')).toBe(STAGING_KEY);
    expect(reopened.get('staging', 'accessToken')).toBeNull();
    expect(reopened.get('sandbox', 'secretKey')).toBeNull();
    expect(reopened.get('global', 'ngrokAuthtoken')).toBe(NGROK);
    expect(reopened.unreadable()).toEqual([]);
    expect(reopened.recovery).toBeNull();
  });

  it('removes a secret when set to null', () => {
    const dataDir = tempDir();
    const store = open(dataDir);
    store.set('staging', 'secretKey', STAGING_KEY);
    expect(store.set('staging', 'secretKey', null)).toEqual({
      set: false,
      last4: null,
      problem: null,
      boundOrigin: null,
    });
    expect(store.get('staging', 'secretKey')).toBeNull();
    expect(open(dataDir).get('staging', 'secretKey')).toBeNull();
    expect(readEntries(dataDir)).toEqual({});
  });

  it('describes only whether each secret is set and its last 4 characters, never the value', () => {
    const dataDir = tempDir();
    const store = open(dataDir);
    store.set('production', 'secretKey', SECRET_KEY);
    store.set('global', 'ngrokAuthtoken', NGROK);
    store.set('global', 'ngrokBasicAuthPassword', 'edge-pass-8841');
    const production = store.describe('production');
    expect(production).toEqual({
      box: { kind: 'file-key', description: expect.stringMatching(/data folder/) as unknown },
      secrets: {
        secretKey: { set: true, last4: SECRET_KEY.slice(-4), problem: null, boundOrigin: '' },
        accessToken: { set: false, last4: null, problem: null, boundOrigin: null },
        ngrokAuthtoken: { set: true, last4: NGROK.slice(-4), problem: null, boundOrigin: null },
        ngrokBasicAuthPassword: { set: true, last4: '8841', problem: null, boundOrigin: null },
      },
    });
    expect(store.get('global', 'ngrokBasicAuthPassword')).toBe('edge-pass-8841');
    expect(store.describe('staging').secrets.secretKey.set).toBe(false);
    expect(store.describe('staging').secrets.ngrokAuthtoken.set).toBe(true);
    const text = JSON.stringify([store.describe('production'), store.describe('staging')]);
    for (const secret of [SECRET_KEY, NGROK]) {
      expect(text).not.toContain(secret);
      expect(text).not.toContain(secret.slice(0, -4));
    }
  });

  it('never puts a plain secret on disk: every file in the data folder is searched', () => {
    const dataDir = tempDir();
    const redactor = createRedactor();
    const log = createAppLogger({ dataDir, redactor });
    const store = createSecretStore({ dataDir, box: createFileSecretBox(dataDir), redactor });
    const secrets = [SECRET_KEY, ACCESS_TOKEN, STAGING_KEY, NGROK];
    store.set('production', 'secretKey', SECRET_KEY);
    store.set('production', 'accessToken', ACCESS_TOKEN);
    store.set('staging', 'secretKey', STAGING_KEY);
    store.set('global', 'ngrokAuthtoken', NGROK);
    store.set('staging', 'secretKey', 'sk_test_replacement_0001');
    log.logger.info({ described: store.describe('production') }, 'secrets described');
    log.close();

    const files = filesUnder(dataDir);
    expect(files.map((path) => path.slice(dataDir.length + 1)).sort()).toEqual([
      'logs/main.log',
      SECRET_BOX_KEY_FILE,
      SECRETS_FILE,
    ]);
    for (const path of files) {
      const bytes = readFileSync(path);
      for (const secret of secrets) {
        expect(bytes.includes(Buffer.from(secret, 'utf8')), `${secret} in ${path}`).toBe(false);
        expect(bytes.includes(Buffer.from(secret, 'utf16le')), `${secret} in ${path}`).toBe(false);
      }
    }
    expect(statSync(join(dataDir, SECRETS_FILE)).mode & 0o777).toBe(0o600);
  });

  it('registers every secret it sets or loads with the redactor, so logs never carry it', () => {
    const dataDir = tempDir();
    // Control: without the store, the same log line does carry the secret.
    const control = createAppLogger({ dataDir: tempDir() });
    control.logger.info({ detail: { value: SECRET_KEY } }, `using ${SECRET_KEY}`);
    control.close();
    expect(readFileSync(control.path, 'utf8')).toContain(SECRET_KEY);

    const first = createRedactor();
    const log = createAppLogger({ dataDir, redactor: first });
    const store = createSecretStore({
      dataDir,
      box: createFileSecretBox(dataDir),
      redactor: first,
    });
    store.set('production', 'secretKey', SECRET_KEY);
    log.logger.info({ detail: { value: SECRET_KEY } }, `using ${SECRET_KEY}`);
    log.logger.error({ err: new Error(`provider refused ${SECRET_KEY}`) }, 'failed');
    log.close();

    // After a restart the secret is only on disk (encrypted): loading must register it.
    const second = createRedactor();
    const log2 = createAppLogger({ dataDir, redactor: second });
    createSecretStore({ dataDir, box: createFileSecretBox(dataDir), redactor: second });
    log2.logger.warn(`loaded ${SECRET_KEY} again`);
    log2.close();

    const text = readFileSync(log.path, 'utf8');
    expect(text.split('\n').filter(Boolean)).toHaveLength(3);
    expect(text).not.toContain(SECRET_KEY);
    expect(text).toContain(REDACTED);
    expect(second.redactText(`x ${SECRET_KEY} y`)).toBe(`x ${REDACTED} y`);
  });

  it('reports a tampered entry clearly and keeps the others', () => {
    const dataDir = tempDir();
    const store = open(dataDir);
    store.set('production', 'secretKey', SECRET_KEY);
    store.set('production', 'accessToken', ACCESS_TOKEN);
    const path = join(dataDir, SECRETS_FILE);
    const file = JSON.parse(readFileSync(path, 'utf8')) as {
      entries: Record<string, { cipher: string }>;
    };
    const entry = file.entries['production.secretKey'];
    if (!entry) throw new Error('entry missing');
    const bytes = Buffer.from(entry.cipher, 'base64');
    bytes[bytes.length - 1] = (bytes[bytes.length - 1] ?? 0) ^ 0xff;
    entry.cipher = bytes.toString('base64');
    writeFileSync(path, JSON.stringify(file));

    const reopened = open(dataDir);
    expect(reopened.get('production', 'secretKey')).toBeNull();
    expect(reopened.get('production', 'accessToken')).toBe(ACCESS_TOKEN);
    const status = reopened.describe('production').secrets.secretKey;
    expect(status.set).toBe(false);
    expect(status.problem).toMatch(/saved secret key cannot be read.*Enter it again/);
    expect(reopened.unreadable()).toEqual([
      { scope: 'production', name: 'secretKey', problem: status.problem },
    ]);
    // Entering it again fixes it.
    reopened.set('production', 'secretKey', SECRET_KEY);
    expect(open(dataDir).get('production', 'secretKey')).toBe(SECRET_KEY);
  });

  it('reports every entry when the key file was lost, without crashing or deleting them', () => {
    const dataDir = tempDir();
    const store = open(dataDir);
    store.set('production', 'secretKey', SECRET_KEY);
    store.set('global', 'ngrokAuthtoken', NGROK);
    unlinkSync(join(dataDir, SECRET_BOX_KEY_FILE));

    const reopened = open(dataDir);
    const unreadable = reopened.unreadable();
    expect(unreadable.map((u) => `${u.scope}.${u.name}`).sort()).toEqual([
      'global.ngrokAuthtoken',
      'production.secretKey',
    ]);
    for (const entry of unreadable) expect(entry.problem).toMatch(/key that protected it is gone/);
    expect(reopened.describe('production').secrets.ngrokAuthtoken.problem).toMatch(
      /ngrok authtoken/,
    );
    // The unreadable ciphertexts stay in the file until replaced.
    expect(Object.keys(readEntries(dataDir)).sort()).toEqual([
      'global.ngrokAuthtoken',
      'production.secretKey',
    ]);
  });

  it('says so when a secret was saved with another kind of box', () => {
    const dataDir = tempDir();
    const other = createFileSecretBox(tempDir());
    const keychain: SecretBox = {
      kind: 'os-keychain',
      description: 'test keychain',
      encrypt: (plain) => other.encrypt(plain),
      decrypt: (cipher) => other.decrypt(cipher),
    };
    open(dataDir, keychain).set('production', 'secretKey', SECRET_KEY);
    expect(readEntries(dataDir)['production.secretKey']?.box).toBe('os-keychain');
    const reopened = open(dataDir);
    expect(reopened.describe('production').secrets.secretKey.problem).toMatch(
      /another protection \(os-keychain\).*\(file-key\)/,
    );
  });

  it('keeps a damaged secrets.json aside and starts empty', () => {
    const dataDir = tempDir();
    writeFileSync(join(dataDir, SECRETS_FILE), '{"format": 1, "entries": {"production.secr');
    const store = createSecretStore({
      dataDir,
      box: createFileSecretBox(dataDir),
      redactor: createRedactor(),
      now: () => new Date('2026-03-01T08:30:00.000Z'),
    });
    const movedTo = join(dataDir, `${SECRETS_FILE}.invalid-2026-03-01T08-30-00-000Z`);
    expect(store.recovery).toEqual({
      movedTo,
      message: expect.stringContaining(movedTo) as unknown,
    });
    expect(store.recovery?.message).toMatch(
      /enter the secret key, payout access token, ngrok authtoken and ngrok basic-auth password again\.$/,
    );
    expect(readFileSync(movedTo, 'utf8')).toContain('production.secr');
    store.set('production', 'secretKey', SECRET_KEY);
    expect(open(dataDir).get('production', 'secretKey')).toBe(SECRET_KEY);
  });

  const bad: readonly [string, string, RegExp][] = [
    ['empty', '   ', /Enter the secret key/],
    ['inner space', 'sk_live abc12345', /spaces/],
    ['a line break inside', 'sk_live_abc\n12345', /control characters/],
    ['a tab inside', 'sk_live_abc\t12345', /control characters/],
    ['a curly quote', 'sk_live_abc12345’', /cannot be sent/],
    ['too short', 'sk_1', /too short/],
    ['too long', `sk_${'x'.repeat(500)}`, /too long/],
  ];

  it.each(bad)(
    'refuses a value that is %s, naming the field and writing nothing',
    (_name, value, words) => {
      const dataDir = tempDir();
      const store = open(dataDir);
      store.set('production', 'secretKey', SECRET_KEY);
      const before = readFileSync(join(dataDir, SECRETS_FILE), 'utf8');
      const error = validationError(() => store.set('production', 'secretKey', value));
      expect(error.code).toBe('INVALID_SECRET');
      expect(error.field).toBe('secretKey');
      expect(error.message).toMatch(words);
      expect(readFileSync(join(dataDir, SECRETS_FILE), 'utf8')).toBe(before);
      expect(store.get('production', 'secretKey')).toBe(SECRET_KEY);
    },
  );

  it('refuses a name in the wrong place, even from untyped callers', () => {
    const store = open(tempDir());
    const untyped = store as unknown as {
      set(scope: string, name: string, value: string | null): unknown;
      get(scope: string, name: string): unknown;
    };
    const notHere = validationError(() => untyped.set('production', 'ngrokAuthtoken', NGROK));
    expect(notHere.field).toBe('name');
    expect(notHere.message).toBe(
      'An environment keeps only the secret key and payout access token',
    );
    const notGlobal = validationError(() => untyped.set('global', 'secretKey', SECRET_KEY));
    expect(notGlobal.field).toBe('name');
    expect(notGlobal.message).toBe(
      'Only the ngrok authtoken and ngrok basic-auth password are kept for all environments',
    );
    expect(validationError(() => untyped.get('live', 'secretKey')).field).toBe('scope');
    expect(validationError(() => untyped.set('production', 'password', SECRET_KEY)).field).toBe(
      'name',
    );
  });

  it('keeps the old value everywhere when the write fails', () => {
    const dataDir = tempDir();
    const store = open(dataDir);
    store.set('production', 'secretKey', SECRET_KEY);
    const path = join(dataDir, SECRETS_FILE);
    // Something in the way of the rename.
    rmSync(path);
    mkdirSync(path);
    writeFileSync(join(path, 'blocker'), 'x');
    expect(() => store.set('production', 'secretKey', 'sk_live_other_value_1')).toThrow();
    expect(store.get('production', 'secretKey')).toBe(SECRET_KEY);
    expect(store.describe('production').secrets.secretKey.last4).toBe(SECRET_KEY.slice(-4));
    expect(readdirSync(dataDir).sort()).toEqual([SECRET_BOX_KEY_FILE, SECRETS_FILE]);
  });

  it('cleans up a temporary file left by a crash mid-write and keeps unknown entries', () => {
    const dataDir = tempDir();
    open(dataDir).set('production', 'secretKey', SECRET_KEY);
    const path = join(dataDir, SECRETS_FILE);
    const file = JSON.parse(readFileSync(path, 'utf8')) as {
      entries: Record<string, unknown>;
    };
    file.entries['future.somethingNew'] = { box: 'file-key', cipher: 'AAAA', updatedAt: 'x' };
    writeFileSync(path, JSON.stringify(file));
    writeFileSync(join(dataDir, `.${SECRETS_FILE}.999.abcdef.tmp`), 'half written');

    const store = open(dataDir);
    expect(readdirSync(dataDir).sort()).toEqual([SECRET_BOX_KEY_FILE, SECRETS_FILE]);
    store.set('staging', 'secretKey', STAGING_KEY);
    expect(Object.keys(readEntries(dataDir)).sort()).toEqual([
      'future.somethingNew',
      'production.secretKey',
      'staging.secretKey',
    ]);
  });
});

describe('a provider key is bound to the origin it was entered for', () => {
  type Addresses = { baseUrl: string; payoutBaseUrl: string };
  function openAt(dataDir: string, addresses: { current: Addresses }): SecretStore {
    return createSecretStore({
      dataDir,
      box: createFileSecretBox(dataDir),
      redactor: createRedactor(),
      addresses: () => addresses.current,
    });
  }
  const PROVIDER = { baseUrl: 'https://api.provider.example/v1', payoutBaseUrl: '' };

  const refusal = (run: () => unknown) => thrownAs(KeysEnteredElsewhereError, run);

  it('is refused once the Base URL points at another origin, kept for a new path, and bound again when entered again', () => {
    const addresses = { current: PROVIDER };
    const store = openAt(tempDir(), addresses);
    store.set('production', 'secretKey', SECRET_KEY);
    addresses.current = { ...PROVIDER, baseUrl: 'https://api.provider.example/v2/' };
    expect(store.get('production', 'secretKey')).toBe(SECRET_KEY);

    addresses.current = { ...PROVIDER, baseUrl: 'https://collector.example:8443/v1' };
    const error = refusal(() => store.get('production', 'secretKey'));
    expect(error).toMatchObject({ code: 'KEYS_ENTERED_ELSEWHERE', field: 'secretKey' });
    expect(error.message).toBe(
      'The LIVE secret key was entered for https://api.provider.example; the Base URL now points to https://collector.example:8443. Enter the keys again in Settings → Connect provider.',
    );
    expect(store.describe('production').secrets.secretKey).toEqual({
      set: true,
      last4: SECRET_KEY.slice(-4),
      problem: error.message,
      boundOrigin: 'https://api.provider.example',
    });

    store.set('production', 'secretKey', SECRET_KEY);
    expect(store.get('production', 'secretKey')).toBe(SECRET_KEY);
    expect(store.describe('production').secrets.secretKey.boundOrigin).toBe(
      'https://collector.example:8443',
    );
  });

  it('binds the access token to the Payout base URL, the secret key to the Base URL', () => {
    const addresses = {
      current: { ...PROVIDER, payoutBaseUrl: 'https://payouts.provider.example' },
    };
    const store = openAt(tempDir(), addresses);
    store.set('staging', 'secretKey', STAGING_KEY);
    store.set('staging', 'accessToken', ACCESS_TOKEN);
    addresses.current = { ...addresses.current, payoutBaseUrl: 'https://elsewhere.example' };
    expect(store.get('staging', 'secretKey')).toBe(STAGING_KEY);
    expect(refusal(() => store.get('staging', 'accessToken')).message).toContain(
      'The STAGING payout access token was entered for https://payouts.provider.example; the Payout base URL now points to https://elsewhere.example.',
    );
  });

  it('binds a key saved before keys were bound to the origin configured at the first start', () => {
    const dataDir = tempDir();
    open(dataDir).set('production', 'secretKey', SECRET_KEY);
    const path = join(dataDir, SECRETS_FILE);
    const file = JSON.parse(readFileSync(path, 'utf8')) as {
      entries: Record<string, { boundOrigin?: string }>;
    };
    delete file.entries['production.secretKey']?.boundOrigin;
    writeFileSync(path, JSON.stringify(file));

    const addresses = { current: PROVIDER };
    expect(openAt(dataDir, addresses).get('production', 'secretKey')).toBe(SECRET_KEY);
    expect(readEntries(dataDir)['production.secretKey']).toMatchObject({
      boundOrigin: 'https://api.provider.example',
    });
    addresses.current = { ...PROVIDER, baseUrl: 'https://collector.example' };
    expect(() => openAt(dataDir, addresses).get('production', 'secretKey')).toThrow(
      KeysEnteredElsewhereError,
    );
  });

  it('tells its listeners which secret changed, never the value', () => {
    const store = open(tempDir());
    const changes: unknown[] = [];
    store.subscribe((change) => changes.push(change));
    store.set('production', 'secretKey', SECRET_KEY);
    store.set('production', 'secretKey', null);
    expect(changes).toEqual([
      { scope: 'production', name: 'secretKey', removed: false },
      { scope: 'production', name: 'secretKey', removed: true },
    ]);
  });
});
