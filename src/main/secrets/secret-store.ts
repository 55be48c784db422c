/**
 * The secret store: the provider's secret key and payout access token for each environment and
 * the ngrok authtoken, kept as ciphertext in <dataDir>/secrets.json. Values are readable in the
 * main process only; the renderer learns whether each is set and its last four characters. Every
 * value loaded or set is registered with the log redactor before anything else can see it.
 *
 * The ngrok authtoken is global (scope 'global'): one tunnel serves the till whatever provider
 * environment is selected, just as the ngrok settings are global.
 *
 * A provider key is kept with the origin it was entered for (key-binding.ts) and handed out only
 * while its environment's address has that origin. Keys saved before keys were bound are bound
 * to the origin configured when this store first opens them.
 */
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { keepPrivate } from '#main/config/private-files';
import type { Redactor } from '#main/logging/redact';
import { ENVIRONMENTS, type Environment } from '#shared/settings-schema';
import { keyLabelInText } from '#shared/settings/key-labels';
import { isAtomicTempName, writeFileAtomic } from './atomic-write';
import { writeOrDiskFull } from '#main/config/disk-full';
import { SecretBoxError, type SecretBox, type SecretBoxKind } from './secret-box';
import { AppError } from '#shared/errors';
import { keyOrigin } from '#shared/provider-url';
import { KeysEnteredElsewhereError, keyBindingProblem, type KeyAddresses } from './key-binding';

export const SECRETS_FILE = 'secrets.json';

export const PROVIDER_SECRET_NAMES = ['secretKey', 'accessToken'] as const;
export type ProviderSecretName = (typeof PROVIDER_SECRET_NAMES)[number];
/** Kept once for the whole till (scope 'global'): the tunnel serves every environment. */
export const GLOBAL_SECRET_NAMES = ['ngrokAuthtoken', 'ngrokBasicAuthPassword'] as const;
export type GlobalSecretName = (typeof GLOBAL_SECRET_NAMES)[number];
export const SECRET_NAMES = [...PROVIDER_SECRET_NAMES, ...GLOBAL_SECRET_NAMES] as const;
export type SecretName = (typeof SECRET_NAMES)[number];

export type SecretScope = Environment | 'global';
/** Which names live in a scope: provider secrets per environment, the ngrok authtoken globally. */
export type SecretNameIn<S extends SecretScope> = S extends 'global'
  ? GlobalSecretName
  : ProviderSecretName;

export const SECRET_MIN_LENGTH = 8;
export const SECRET_MAX_LENGTH = 500;

/** What the renderer may learn about one secret. Never the value. */
export interface SecretStatus {
  readonly set: boolean;
  readonly last4: string | null;
  /** Why a saved secret cannot be used (it must be entered again), or null. */
  readonly problem: string | null;
  /** The origin a saved provider key was entered for ('' before any address was set); null otherwise. */
  readonly boundOrigin: string | null;
}

/** A secret saved or removed (never its value). */
export interface SecretChange {
  readonly scope: SecretScope;
  readonly name: SecretName;
  readonly removed: boolean;
}

export interface SecretsDescription {
  readonly box: { readonly kind: SecretBoxKind; readonly description: string };
  readonly secrets: { readonly [N in SecretName]: SecretStatus };
}

export interface UnreadableSecret {
  readonly scope: SecretScope;
  readonly name: SecretName;
  readonly problem: string;
}

export interface SecretsFileRecovery {
  readonly movedTo: string;
  readonly message: string;
}

export interface SecretStore {
  /**
   * Sets (or with null, removes) a secret. Throws SecretValidationError naming the field. A
   * provider key is bound to `boundOrigin`, by default the origin its address has now.
   */
  set<S extends SecretScope>(
    scope: S,
    name: SecretNameIn<S>,
    value: string | null,
    boundOrigin?: string,
  ): SecretStatus;
  /**
   * Main process only. Null when not set or unreadable. A provider key entered for another
   * origin than its address has now is never returned: KeysEnteredElsewhereError.
   */
  get<S extends SecretScope>(scope: S, name: SecretNameIn<S>): string | null;
  /** All the renderer may know for an environment's settings screen (ngrok included). */
  describe(environment: Environment): SecretsDescription;
  /** Saved secrets that cannot be decrypted, for an alert at start. */
  unreadable(): readonly UnreadableSecret[];
  /** Set when secrets.json itself was damaged and was moved aside. */
  readonly recovery: SecretsFileRecovery | null;
  /** Told of every secret saved or removed, after it is written. */
  subscribe(listener: (change: SecretChange) => void): () => void;
}

export interface SecretStoreOptions {
  readonly dataDir: string;
  readonly box: SecretBox;
  readonly redactor: Redactor;
  readonly now?: () => Date;
  /** Where each environment's keys are sent now (its profile's addresses). Default: none. */
  readonly addresses?: (environment: Environment) => KeyAddresses;
}

export class SecretValidationError extends AppError<'INVALID_SECRET'> {
  declare readonly field: string;
  constructor(field: string, message: string) {
    super('INVALID_SECRET', message, { field });
    this.name = 'SecretValidationError';
  }
}

interface EntryRecord {
  readonly box: string;
  /** base64 of the box's ciphertext. */
  readonly cipher: string;
  readonly updatedAt: string;
  /** A provider key's origin (key-binding.ts); absent in files written before keys were bound. */
  readonly boundOrigin?: string;
}

interface SecretsFile {
  readonly format: 1;
  /** Keyed 'production.secretKey', 'global.ngrokAuthtoken'. Unknown keys are kept as they are. */
  readonly entries: Readonly<Record<string, EntryRecord>>;
}

interface Loaded {
  readonly value: string | null;
  readonly problem: string | null;
  /** A provider key's origin; null for the global secrets. */
  readonly boundOrigin: string | null;
}

/** Keys named in a sentence: 'secret key, payout access token and ngrok authtoken'. */
function keysInText(names: readonly SecretName[]): string {
  const words = names.map(keyLabelInText);
  return words.length < 2 ? words.join('') : `${words.slice(0, -1).join(', ')} and ${words.at(-1)}`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isEntryRecord(value: unknown): value is EntryRecord {
  return (
    isRecord(value) &&
    typeof value['box'] === 'string' &&
    typeof value['cipher'] === 'string' &&
    typeof value['updatedAt'] === 'string' &&
    (value['boundOrigin'] === undefined || typeof value['boundOrigin'] === 'string')
  );
}

/** The environment and name of a provider key's slot, or null for a global secret. */
function providerSlot(
  scope: SecretScope,
  name: SecretName,
): { readonly environment: Environment; readonly name: ProviderSecretName } | null {
  if (scope === 'global' || !(PROVIDER_SECRET_NAMES as readonly string[]).includes(name)) {
    return null;
  }
  return { environment: scope, name: name as ProviderSecretName };
}

function slotKey(scope: SecretScope, name: SecretName): string {
  return `${scope}.${name}`;
}

function checkSlot(scope: unknown, name: unknown): asserts name is SecretName {
  const isEnvironment = (ENVIRONMENTS as readonly unknown[]).includes(scope);
  if (scope !== 'global' && !isEnvironment) {
    throw new SecretValidationError(
      'scope',
      `Unknown place for a secret: use ${ENVIRONMENTS.join(', ')} or global`,
    );
  }
  const allowed: readonly string[] =
    scope === 'global' ? GLOBAL_SECRET_NAMES : PROVIDER_SECRET_NAMES;
  if (typeof name !== 'string' || !allowed.includes(name)) {
    throw new SecretValidationError(
      'name',
      scope === 'global'
        ? `Only the ${keysInText(GLOBAL_SECRET_NAMES)} are kept for all environments`
        : `An environment keeps only the ${keysInText(PROVIDER_SECRET_NAMES)}`,
    );
  }
}

/** The value as it will be stored (trimmed), or a SecretValidationError in plain words. */
export function normalizeSecret(name: SecretName, value: unknown): string {
  const label = keyLabelInText(name);
  if (typeof value !== 'string') {
    throw new SecretValidationError(name, `The ${label} must be text`);
  }
  const trimmed = value.trim();
  if (trimmed === '') throw new SecretValidationError(name, `Enter the ${label}`);
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(trimmed)) {
    throw new SecretValidationError(name, `The ${label} contains invisible control characters`);
  }
  if (/\s/.test(trimmed)) {
    throw new SecretValidationError(
      name,
      `The ${label} contains spaces; copy it again without spaces or line breaks`,
    );
  }
  if (!/^[\x21-\x7e]+$/.test(trimmed)) {
    throw new SecretValidationError(
      name,
      `The ${label} contains a character that cannot be sent (a curly quote or a symbol from a document?); copy it again from the provider's message`,
    );
  }
  if (trimmed.length < SECRET_MIN_LENGTH) {
    throw new SecretValidationError(
      name,
      `The ${label} is too short (at least ${SECRET_MIN_LENGTH} characters); check that it was copied whole`,
    );
  }
  if (trimmed.length > SECRET_MAX_LENGTH) {
    throw new SecretValidationError(
      name,
      `The ${label} is too long (at most ${SECRET_MAX_LENGTH} characters)`,
    );
  }
  return trimmed;
}

function stamp(date: Date): string {
  return date.toISOString().replace(/[:.]/g, '-');
}

/**
 * The stored entries; a damaged file is moved aside (kept, never overwritten) and reported as a
 * recovery, and a missing one is empty.
 */
function readSecretsFile(
  path: string,
  now: () => Date,
): {
  entries: Readonly<Record<string, EntryRecord>>;
  recovery: SecretsFileRecovery | null;
} {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { entries: {}, recovery: null };
    throw error;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  const fileEntries = isRecord(parsed) && parsed['format'] === 1 ? parsed['entries'] : undefined;
  if (!isRecord(fileEntries) || !Object.values(fileEntries).every(isEntryRecord)) {
    const base = `${path}.invalid-${stamp(now())}`;
    let movedTo = base;
    for (let n = 1; existsSync(movedTo); n++) movedTo = `${base}-${n}`;
    renameSync(path, movedTo);
    return {
      entries: {},
      recovery: {
        movedTo,
        message: `The secrets file was damaged. It was kept as ${movedTo}; enter the ${keysInText(SECRET_NAMES)} again.`,
      },
    };
  }
  return { entries: fileEntries as Record<string, EntryRecord>, recovery: null };
}

/** One stored secret opened (and registered with the redactor), or why it cannot be. */
function decryptEntry(
  box: SecretStoreOptions['box'],
  redactor: SecretStoreOptions['redactor'],
  name: SecretName,
  record: EntryRecord,
  boundOrigin: string | null,
): Loaded {
  const label = keyLabelInText(name);
  try {
    const value = box.decrypt(Buffer.from(record.cipher, 'base64'));
    redactor.addSecret(value);
    return { value, problem: null, boundOrigin };
  } catch (error) {
    const why =
      record.box !== box.kind
        ? `it was saved with another protection (${record.box}) than this computer now uses (${box.kind})`
        : error instanceof SecretBoxError && error.code === 'CIPHERTEXT_MALFORMED'
          ? 'its saved form is damaged'
          : 'the key that protected it is gone or the file was changed';
    return {
      value: null,
      problem: `The saved ${label} cannot be read: ${why}. Enter it again.`,
      boundOrigin,
    };
  }
}

/**
 * The saved entries opened, each provider key with its origin. A key saved before keys were
 * bound is bound here to the origin its address has now (the first start after the upgrade);
 * `upgraded` then holds the entries to write back.
 */
function openEntries(
  entries: Readonly<Record<string, EntryRecord>>,
  options: SecretStoreOptions,
  addresses: (environment: Environment) => KeyAddresses,
): { loaded: Map<string, Loaded>; upgraded: Readonly<Record<string, EntryRecord>> | null } {
  const loaded = new Map<string, Loaded>();
  let upgraded: Record<string, EntryRecord> | null = null;
  for (const scope of [...ENVIRONMENTS, 'global'] as const) {
    for (const name of scope === 'global' ? GLOBAL_SECRET_NAMES : PROVIDER_SECRET_NAMES) {
      const key = slotKey(scope, name);
      const record = entries[key];
      if (!record) continue;
      const slot = providerSlot(scope, name);
      let boundOrigin: string | null = null;
      if (slot) {
        boundOrigin = record.boundOrigin ?? keyOrigin(addresses(slot.environment), slot.name);
        if (record.boundOrigin === undefined) {
          upgraded ??= { ...entries };
          upgraded[key] = { ...record, boundOrigin };
        }
      }
      loaded.set(key, decryptEntry(options.box, options.redactor, name, record, boundOrigin));
    }
  }
  return { loaded, upgraded };
}

/** Why a saved provider key cannot go where its address points now, or null. */
function bindingProblem(
  addresses: (environment: Environment) => KeyAddresses,
  scope: SecretScope,
  name: SecretName,
  entry: Loaded,
): string | null {
  const slot = providerSlot(scope, name);
  if (!slot || entry.boundOrigin === null) return null;
  return keyBindingProblem(
    slot.environment,
    slot.name,
    entry.boundOrigin,
    addresses(slot.environment),
  );
}

export function createSecretStore(options: SecretStoreOptions): SecretStore {
  const { dataDir, box, redactor } = options;
  const now = options.now ?? (() => new Date());
  const addresses = options.addresses ?? (() => ({ baseUrl: '', payoutBaseUrl: '' }));
  const path = join(dataDir, SECRETS_FILE);
  mkdirSync(dataDir, { recursive: true });
  keepPrivate(path);

  // A temporary file from a write that a crash interrupted: the rename never happened.
  for (const name of readdirSync(dataDir)) {
    if (isAtomicTempName(name, SECRETS_FILE)) rmSync(join(dataDir, name), { force: true });
  }

  const file = readSecretsFile(path, now);
  const recovery = file.recovery;
  let entries = file.entries;
  const opened = openEntries(entries, options, addresses);
  const loaded = opened.loaded;
  const listeners = new Set<(change: SecretChange) => void>();

  function status(scope: SecretScope, name: SecretName): SecretStatus {
    const entry = loaded.get(slotKey(scope, name));
    if (!entry) return { set: false, last4: null, problem: null, boundOrigin: null };
    const { boundOrigin } = entry;
    if (entry.value === null)
      return { set: false, last4: null, problem: entry.problem, boundOrigin };
    const problem = bindingProblem(addresses, scope, name, entry);
    return { set: true, last4: entry.value.slice(-4), problem, boundOrigin };
  }

  function write(next: Readonly<Record<string, EntryRecord>>): void {
    const file: SecretsFile = { format: 1, entries: next };
    writeOrDiskFull('the keys were not changed', () =>
      writeFileAtomic(path, `${JSON.stringify(file, null, 2)}\n`, 0o600),
    );
  }

  if (opened.upgraded) {
    write(opened.upgraded);
    entries = opened.upgraded;
  }

  function changed(change: SecretChange): void {
    for (const listener of [...listeners]) listener(change);
  }

  function remove(scope: SecretScope, name: SecretName): SecretStatus {
    const key = slotKey(scope, name);
    if (!(key in entries)) return status(scope, name);
    const { [key]: _removed, ...rest } = entries;
    write(rest);
    entries = rest;
    loaded.delete(key);
    changed({ scope, name, removed: true });
    return status(scope, name);
  }

  return {
    get recovery() {
      return recovery;
    },
    set(scope, name, value, bound) {
      checkSlot(scope, name);
      if (value === null) return remove(scope, name);
      const key = slotKey(scope, name);
      const secret = normalizeSecret(name, value);
      // Registered first: from here on no log line can carry it.
      redactor.addSecret(secret);
      const slot = providerSlot(scope, name);
      const boundOrigin = slot
        ? (bound ?? keyOrigin(addresses(slot.environment), slot.name))
        : null;
      const record: EntryRecord = {
        box: box.kind,
        cipher: box.encrypt(secret).toString('base64'),
        updatedAt: now().toISOString(),
        ...(boundOrigin === null ? {} : { boundOrigin }),
      };
      const next = { ...entries, [key]: record };
      write(next);
      entries = next;
      loaded.set(key, { value: secret, problem: null, boundOrigin });
      changed({ scope, name, removed: false });
      return status(scope, name);
    },
    get(scope, name) {
      checkSlot(scope, name);
      const entry = loaded.get(slotKey(scope, name));
      if (!entry || entry.value === null) return null;
      const problem = bindingProblem(addresses, scope, name, entry);
      if (problem !== null)
        throw new KeysEnteredElsewhereError(problem, name as ProviderSecretName);
      return entry.value;
    },
    describe(environment) {
      if (!(ENVIRONMENTS as readonly string[]).includes(environment)) {
        throw new SecretValidationError('scope', `Unknown environment: ${String(environment)}`);
      }
      return {
        box: { kind: box.kind, description: box.description },
        secrets: {
          secretKey: status(environment, 'secretKey'),
          accessToken: status(environment, 'accessToken'),
          ngrokAuthtoken: status('global', 'ngrokAuthtoken'),
          ngrokBasicAuthPassword: status('global', 'ngrokBasicAuthPassword'),
        },
      };
    },
    unreadable() {
      const out: UnreadableSecret[] = [];
      for (const [key, entry] of loaded) {
        if (entry.problem === null) continue;
        const [scope, name] = key.split('.') as [SecretScope, SecretName];
        out.push({ scope, name, problem: entry.problem });
      }
      return out;
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  };
}
