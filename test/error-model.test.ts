import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { channelNames, type Handlers } from '#shared/bridge/contract';
import { AmountWordsError } from '#shared/naira-words';
import { MoneyError } from '#shared/money';
import { ProviderTimeError } from '#shared/provider-time';
import { APP_ERROR_CODES, AppError, ERROR_CODES_BY_AREA } from '#shared/errors';
import { AuthError } from '#main/auth/auth-errors';
import { PinHashError } from '#main/auth/pin-hash';
import { IN_PROCESS_OWNER } from '#main/auth/caller';
import { dispatch } from '#main/bridge/dispatch';
import { DataDirError } from '#main/config/data-dir';
import { WebFlagError } from '#main/web/web-flags';
import { HubError } from '#main/hub/hub-errors';
import { PairingError } from '#main/hub/pairing-codes';
import { ProviderConfigError, ProviderError } from '#main/provider/errors';
import { ReferenceGeneratorError } from '#main/provider/references';
import { SaleError } from '#main/engine/engine-types';
import { ExceptionResolutionError } from '#main/reports/exception-resolutions';
import { ReportError } from '#main/reports/report-range';
import { ReportFileError } from '#main/reports/pdf/pdf-fonts';
import { SecretBoxError } from '#main/secrets/secret-box';
import { KeysEnteredElsewhereError } from '#main/secrets/key-binding';
import { SecretValidationError } from '#main/secrets/secret-store';
import { SettingsFileError, SettingsValidationError } from '#main/settings/errors';
import { DatabaseVersionError } from '#main/store/migrate';
import { StoreFullError } from '#main/store/store-space';
import { DiskFullError } from '#main/config/disk-full';
import { SyncError } from '#main/sync/sync';
import { CallbackUrlError } from '#main/tunnel/callback-url';
import { TunnelError } from '#main/tunnel/types';
import { WebhookListenerError } from '#main/webhook/webhook-listener';

const root = resolve(import.meta.dirname, '..');

/** Runs one bridge call whose handler throws `thrown`, as main does for every channel. */
async function answerFor(thrown: unknown) {
  const handlers = Object.fromEntries(
    channelNames.map((name) => [
      name,
      () => {
        throw thrown;
      },
    ]),
  ) as unknown as Handlers;
  const onUnexpected = vi.fn();
  const result = await dispatch(handlers, 'getAppInfo', {}, onUnexpected, IN_PROCESS_OWNER);
  return { result, onUnexpected };
}

/** One of each error class main and shared throw, and the code (and field) the caller gets. */
const CLASSES: readonly (readonly [Error, string, string?])[] = [
  [
    new ProviderError({ code: 'PROVIDER_AUTH_REFUSED', operation: 'status', message: 'm' }),
    'PROVIDER_AUTH_REFUSED',
  ],
  [
    new ProviderError({
      code: 'INVALID_REQUEST',
      operation: 'create',
      message: 'm',
      field: 'amount',
    }),
    'INVALID_REQUEST',
    'amount',
  ],
  [new ProviderConfigError('baseUrl', 'm'), 'INVALID_CONFIG', 'baseUrl'],
  [new ReferenceGeneratorError('m'), 'INVALID_REFERENCE_OPTION'],
  [new SaleError('SALE_NOT_OPEN', 'm'), 'SALE_NOT_OPEN'],
  [new SaleError('INVALID_AMOUNT', 'm', 'amount'), 'INVALID_AMOUNT', 'amount'],
  [new AuthError('WRONG_PIN', 'm', 'pin'), 'WRONG_PIN', 'pin'],
  [new PinHashError('m'), 'PIN_HASH_UNREADABLE'],
  [new HubError('TILL_ID_TAKEN', 'm', 'tillId'), 'TILL_ID_TAKEN', 'tillId'],
  [new PairingError('PAIRING_EXPIRED'), 'PAIRING_EXPIRED'],
  [new WebhookListenerError('LISTEN_FAILED', 'm'), 'LISTEN_FAILED'],
  [new TunnelError('BAD_AUTHTOKEN', 'm', 'detail for the log'), 'BAD_AUTHTOKEN'],
  [new CallbackUrlError('m'), 'INVALID_PUBLIC_URL'],
  [
    new SettingsValidationError([{ field: 'receipt.footer', message: 'm' }]),
    'INVALID_SETTINGS',
    'receipt.footer',
  ],
  [new SettingsFileError('/tmp/settings.json', 'm'), 'SETTINGS_FILE'],
  [new SecretValidationError('secretKey', 'm'), 'INVALID_SECRET', 'secretKey'],
  [new KeysEnteredElsewhereError('m', 'accessToken'), 'KEYS_ENTERED_ELSEWHERE', 'accessToken'],
  [new SecretBoxError('UNAVAILABLE', 'm'), 'UNAVAILABLE'],
  [new DataDirError('m'), 'DATA_DIR'],
  [new WebFlagError('m'), 'WEB_FLAG_INVALID'],
  [new StoreFullError(), 'DISK_FULL'],
  [new DiskFullError('the settings were not saved'), 'DISK_FULL'],
  [new DatabaseVersionError(12, 9), 'DATABASE_TOO_NEW'],
  [new ExceptionResolutionError('NOTE_REQUIRED', 'm', 'note'), 'NOTE_REQUIRED', 'note'],
  [new ReportError('INVALID_RANGE', 'm', 'from'), 'INVALID_RANGE', 'from'],
  [new ReportFileError('PDF_FAILED', 'm'), 'PDF_FAILED'],
  [new SyncError('INVALID_OPTION', 'm'), 'INVALID_OPTION'],
  [new ProviderTimeError('IMPOSSIBLE_DATE', 'm'), 'IMPOSSIBLE_DATE'],
  [new MoneyError('m'), 'INVALID_AMOUNT'],
  [new AmountWordsError(-1), 'AMOUNT_NOT_SAYABLE'],
  [new AppError('BUSY', 'm'), 'BUSY'],
];

describe('one error model', () => {
  it.each(CLASSES.map(([error, code, field]) => [error.name, code, error, field] as const))(
    '%s reaches the caller as %s, with its message and field',
    async (_name, code, error, field) => {
      expect(error).toBeInstanceOf(AppError);
      const { result, onUnexpected } = await answerFor(error);
      expect(result).toEqual({
        ok: false,
        error: { code, message: error.message, ...(field ? { field } : {}) },
      });
      expect(onUnexpected).not.toHaveBeenCalled();
    },
  );

  it('gives a thrown value that is not an AppError the internal code, logged, its words unseen', async () => {
    const leaky = Object.assign(new Error('SQLITE_CORRUPT: /home/shop/till.db is damaged'), {
      code: 'SQLITE_CORRUPT',
    });
    const { result, onUnexpected } = await answerFor(leaky);
    expect(result).toMatchObject({ ok: false, error: { code: 'INTERNAL' } });
    expect(JSON.stringify(result)).not.toMatch(/SQLITE|till\.db/);
    expect(onUnexpected).toHaveBeenCalledWith(leaky, 'getAppInfo');
  });

  it('defines each code once, in one area', () => {
    const all = Object.values(ERROR_CODES_BY_AREA).flat();
    expect(new Set(all).size).toBe(all.length);
    expect(APP_ERROR_CODES).toEqual(all);
    for (const code of all) expect(code).toMatch(/^[A-Z][A-Z0-9_]*$/);
  });

  it('tells a refused shell token from a provider that refused our key', () => {
    // The shell's 401 is an outside interface (docs/shop-hub.md, test/hub-lan.test.ts).
    expect(APP_ERROR_CODES).toContain('UNAUTHORISED');
    expect(APP_ERROR_CODES).toContain('PROVIDER_AUTH_REFUSED');
    const spelling = (code: string) => code.replace(/[SZ]/g, '?');
    const clashes = APP_ERROR_CODES.filter((code, index) =>
      APP_ERROR_CODES.some((other, at) => at !== index && spelling(other) === spelling(code)),
    );
    expect(clashes).toEqual([]);
  });

  it('has no error class outside the model: every class named *Error extends AppError or one of its subclasses', () => {
    const source = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) return source(path);
        return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
      });
    const declared = source(join(root, 'src')).flatMap((path) =>
      [...readFileSync(path, 'utf8').matchAll(/class (\w+) extends (\w+)/g)].map(
        ([, name, base]) => ({ name, base, path: relative(root, path) }),
      ),
    );
    const outside = (name: string) => name === 'AppError' || OUTSIDE_THE_MODEL.has(name);
    // Straight on Error: only AppError itself and the two named below.
    expect(declared.filter((item) => item.base === 'Error' && !outside(item.name ?? ''))).toEqual(
      [],
    );
    // Every other *Error class builds on AppError or on another class of the model.
    const model = declared.filter((item) => item.name?.endsWith('Error') && !outside(item.name));
    const names = new Set(['AppError', ...model.map((item) => item.name)]);
    for (const item of model)
      expect(names.has(item.base), `${item.name} in ${item.path}`).toBe(true);
    expect(model.length).toBeGreaterThan(40);
  });
});

/**
 * Classes that are not app errors on purpose: the sandbox's error is the fake provider's HTTP
 * answer (its codes are the provider's, not ours), and BodyTooLarge is a private signal inside
 * one function of the provider client that becomes a MALFORMED_RESPONSE ProviderError.
 */
const OUTSIDE_THE_MODEL: ReadonlySet<string> = new Set(['SandboxError', 'BodyTooLarge']);
