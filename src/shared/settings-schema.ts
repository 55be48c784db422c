/**
 * The settings in zod: the one source of their shape, defaults and rules. The JSON Schema that
 * conf / electron-store check the file with is derived from this (see backend-options.ts); zod
 * stays the authority because JSON Schema cannot express the refinements below.
 */
import { z } from 'zod';
import { DEFAULT_LAN_HOST, DEFAULT_LAN_PORT } from './hub';
import { PAPER_WIDTHS_MM } from './printing';
import { OUTAGE_POLICIES } from './sales';
import { checkAddress, LOOPBACK_WORDS, providerTransportProblem } from './provider-url';
import { ENVIRONMENTS, KEYED_ENVIRONMENTS } from './environments';
import { LEGACY_TILL_ID, tillIdProblem } from './till-id';

export {
  ENVIRONMENT_NAMES,
  ENVIRONMENTS,
  KEYED_ENVIRONMENTS,
  type Environment,
  type KeyedEnvironment,
} from './environments';

/** What sales show as the shop's name until the owner names the shop. */
export const DEFAULT_SHOP_NAME = 'My Shop';

function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-NG', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** The address rule (provider-url.ts) in the settings form's words. */
const ADDRESS_PROBLEM_WORDS = {
  'not-absolute': 'Enter a full address, e.g. https://api.example.com',
  scheme: 'The address must start with https://',
  credentials: 'The address must not contain a user name or password',
  'query-or-fragment': 'The address must not contain ? or # parts',
} as const;

/** Why a URL typed into settings cannot be used, or null when it can. Empty means "not set". */
export function urlProblem(value: string): string | null {
  if (value === '') return null;
  const { problem } = checkAddress(value);
  if (problem === null) return null;
  // Without an environment the transport is not judged here (the profile refinement does it).
  return problem.kind === 'transport' ? problem.words : ADDRESS_PROBLEM_WORDS[problem.kind];
}

const httpsUrlOrEmpty = z
  .string()
  .trim()
  .max(300, 'At most 300 characters')
  .superRefine((value, ctx) => {
    const problem = urlProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

/** 4 or 6 for an IP address, 0 otherwise (pure: this module is shared with the renderer). */
export function ipFamily(address: string): 0 | 4 | 6 {
  if (IPV4.test(address)) return 4;
  if (!address.includes(':') || !/^[0-9A-Fa-f:.]+$/.test(address)) return 0;
  try {
    // The URL parser validates IPv6 literals exactly (including embedded IPv4 forms).
    return new URL(`http://[${address}]/`).hostname.length > 2 ? 6 : 0;
  } catch {
    return 0;
  }
}

function isCidr(value: string): boolean {
  const [address = '', prefix, ...rest] = value.split('/');
  const family = ipFamily(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  if (!/^\d{1,3}$/.test(prefix)) return false;
  return Number(prefix) <= (family === 4 ? 32 : 128);
}

/** Everything about one provider environment except its secrets (those live in the secret store). */
export const profileSchema = z.object({
  baseUrl: httpsUrlOrEmpty.default(''),
  payoutBaseUrl: httpsUrlOrEmpty.default(''),
  merchantId: z.string().trim().max(100, 'At most 100 characters').default(''),
  merchantCategory: z
    .string()
    .trim()
    .min(1, 'Enter the merchant category (use "others" when unsure)')
    .max(50, 'At most 50 characters')
    .default('others'),
  accountName: z
    .string()
    .trim()
    .min(1, 'Enter the name customers see on the account')
    .max(100, 'At most 100 characters')
    .default('Transfer Till'),
  expiryMinutes: z
    .number()
    .int('Whole minutes only')
    .min(1, 'At least 1 minute')
    .max(1440, 'At most 1440 minutes (a day)')
    .default(15),
  payoutAccountId: z
    .string()
    .trim()
    .max(40, 'At most 40 digits')
    .regex(/^\d*$/, 'Digits only')
    .default(''),
});
export type Profile = z.infer<typeof profileSchema>;

/**
 * The SANDBOX profile may use a standalone `npm run sandbox` (its control URL) instead of the
 * embedded one, so that several tills train against one provider. Empty: the embedded sandbox.
 */
export const sandboxProfileSchema = profileSchema.extend({
  sandboxUrl: httpsUrlOrEmpty.default(''),
});
export type SandboxProfile = z.infer<typeof sandboxProfileSchema>;

/** Saying the amount of a paid sale out loud (the renderer's voice/ folder speaks it). */
export const voiceSettingsSchema = z.object({
  /** On by default: the amount said out loud is what cashiers trust. */
  enabled: z.boolean().default(true),
  volume: z.number().min(0, 'From 0 to 1').max(1, 'From 0 to 1').default(1),
  /** A voice's voiceURI on the speaking computer; '' (or one it lacks) picks en-NG, en-GB, en-*. */
  voiceURI: z.string().max(300, 'At most 300 characters').default(''),
});
export type VoiceSettings = z.infer<typeof voiceSettingsSchema>;
export const DEFAULT_VOICE_SETTINGS: VoiceSettings = voiceSettingsSchema.parse({});

export const settingsSchema = z
  .object({
    environment: z.enum(ENVIRONMENTS).default('sandbox'),
    profiles: z
      .object({
        sandbox: sandboxProfileSchema.prefault({}),
        staging: profileSchema.prefault({}),
        production: profileSchema.prefault({}),
      })
      .prefault({}),
    shop: z
      .object({
        name: z
          .string()
          .trim()
          .min(1, 'Enter the shop name')
          .max(100, 'At most 100 characters')
          .default(DEFAULT_SHOP_NAME),
        /**
         * Whether the owner has told the till the shop's name (the first-start screen asks once).
         * True when absent: a settings file from before the question was asked belongs to a till
         * that was set up already; a fresh till's file is written with false on its first start
         * (src/main/settings/shop-name.ts).
         */
        nameConfirmed: z.boolean().default(true),
        // Checked by a refinement, not a JSON Schema pattern: an older install's id (which could
        // hold '_' and be longer) must reach the settings file migration, not be refused by conf.
        // A fresh install is given a unique id on first start; the default is the old one.
        tillId: z
          .string()
          .trim()
          .superRefine((tillId, ctx) => {
            const problem = tillIdProblem(tillId);
            if (problem) ctx.addIssue({ code: 'custom', message: problem });
          })
          .default(LEGACY_TILL_ID),
        cashiers: z
          .array(
            z
              .string()
              .trim()
              .min(1, 'A cashier name cannot be empty')
              .max(60, 'At most 60 characters'),
          )
          .max(50, 'At most 50 cashiers')
          .default([])
          .superRefine((names, ctx) => {
            const seen = new Set<string>();
            names.forEach((name, index) => {
              const key = name.toLowerCase();
              if (seen.has(key)) {
                ctx.addIssue({
                  code: 'custom',
                  path: [index],
                  message: `"${name}" is already in the list`,
                });
              }
              seen.add(key);
            });
          }),
      })
      .prefault({}),
    timeZone: z.string().trim().refine(isTimeZone, 'Unknown time zone').default('Africa/Lagos'),
    dayCutoffHour: z
      .number()
      .int('A whole hour from 0 to 23')
      .min(0, 'A whole hour from 0 to 23')
      .max(23, 'A whole hour from 0 to 23')
      .default(0),
    /** The largest sale the till accepts, in kobo (₦5,000,000 by default). */
    maxSaleKobo: z
      .number()
      .int('Whole kobo only')
      .min(100, 'At least ₦1.00')
      .max(100_000_000_000, 'At most ₦1,000,000,000.00')
      .default(500_000_000),
    callbacks: z
      .object({
        /** How the provider reaches us: an ngrok tunnel, the shop's own public URL, or none (polling). */
        mode: z.enum(['ngrok', 'public-url', 'polling-only']).default('ngrok'),
        publicUrl: httpsUrlOrEmpty.default(''),
        listenerPort: z
          .number()
          .int('A whole port number')
          .min(0, 'A port from 0 (any free port) to 65535')
          .max(65535, 'A port from 0 (any free port) to 65535')
          .default(0),
        ngrokDomain: z
          .string()
          .trim()
          .max(200, 'At most 200 characters')
          .regex(
            /^$|^[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)+$/,
            'Enter a domain name only, e.g. my-shop.ngrok.app (no https://)',
          )
          .default(''),
        ngrokAllowCidrs: z
          .array(
            z
              .string()
              .trim()
              .max(50, 'At most 50 characters')
              .refine(isCidr, 'Enter an IP address or range, e.g. 102.89.0.0/16'),
          )
          .max(50, 'At most 50 ranges')
          .default([]),
        ngrokBasicAuthUser: z.string().trim().max(60, 'At most 60 characters').default(''),
      })
      .prefault({}),
    report: z
      .object({
        /**
         * The merchant account also receives transfers from other channels (a POS, a website):
         * money with no reference of this shop is then "Other income on this account", counted
         * apart, not a case for a person.
         */
        otherIncome: z.boolean().default(false),
      })
      .prefault({}),
    standingAccounts: z
      .object({
        /**
         * A standing (static-flex counter) account takes any amount by design: a success above
         * this many kobo into one is flagged for a person (an alert and a report exception).
         * 0 turns the rule off.
         */
        flagAboveKobo: z
          .number()
          .int('Whole kobo only')
          .min(0, '0 (off) or more')
          .max(100_000_000_000, 'At most ₦1,000,000,000.00')
          .default(0),
      })
      .prefault({}),
    /** Selling through an outage on the till's standing account (issue 35). */
    outage: z
      .object({
        /**
         * While an outage sale waits for its money to be seen: 'wait' keeps the goods until it
         * is confirmed; 'hand_over' lets the cashier give them when the customer's screen shows
         * the transfer (recorded on the sale).
         */
        policy: z.enum(OUTAGE_POLICIES).default('wait'),
        /** The owner lets cashiers take outage sales even while the provider answers. */
        allowByChoice: z.boolean().default(false),
      })
      .prefault({}),
    sync: z
      .object({
        intervalMinutes: z
          .number()
          .int('Whole minutes only')
          .min(0, '0 (off) or more minutes')
          .max(1440, 'At most 1440 minutes (a day)')
          .default(15),
        onStartup: z.boolean().default(true),
      })
      .prefault({}),
    sounds: z
      .object({
        enabled: z.boolean().default(true),
        volume: z.number().min(0, 'From 0 to 1').max(1, 'From 0 to 1').default(0.6),
        // Inside `sounds` so that it reaches every counter with the session, as the chime does.
        // Optional: a settings object from before the voice (and an older main) stays valid;
        // absent means DEFAULT_VOICE_SETTINGS.
        voice: voiceSettingsSchema.optional(),
      })
      .prefault({}),
    backups: z
      .object({
        keep: z
          .number()
          .int('A whole number of backups')
          .min(1, 'Keep at least 1 backup')
          .max(60, 'At most 60 backups')
          .default(7),
      })
      .prefault({}),
    /** How long the store keeps data whole (src/main/store/retention.ts states every rule). */
    retention: z
      .object({
        /** Callback bodies older than this are reduced to what reconciliation needs. */
        callbackBodyDays: z
          .number()
          .int('A whole number of days')
          .min(30, 'Keep callback bodies at least 30 days')
          .max(3650, 'At most 3650 days (ten years)')
          .default(90),
        /**
         * A reduced callback older than this goes when its inflow row holds all it held (same
         * session id, reference and amount, with a sale). Absent: 365 days, or the bodies' age
         * when that is longer (callbackRowDaysOf), so that a longer body age set on its own
         * (Settings shows that field only) never turns into an error.
         */
        callbackRowDays: z
          .number()
          .int('A whole number of days')
          .min(30, 'Keep callbacks at least 30 days')
          .max(3650, 'At most 3650 days (ten years)')
          .optional(),
      })
      .superRefine((retention, ctx) => {
        const rowDays = retention.callbackRowDays;
        if (rowDays !== undefined && rowDays < retention.callbackBodyDays) {
          ctx.addIssue({
            code: 'custom',
            path: ['callbackRowDays'],
            message: `Keep callbacks at least as long as their bodies (${retention.callbackBodyDays} days)`,
          });
        }
      })
      .prefault({}),
    /** Owner and cashier roles. The PINs themselves live in main (pins.json), never here. */
    roles: z
      .object({
        /** The owner's option: every cashier needs their own PIN to sign in. */
        cashierPins: z.boolean().default(false),
      })
      .prefault({}),
    /** The desktop app only (the browser shell keeps them but does not act on them). */
    desktop: z
      .object({
        startAtLogin: z.boolean().default(false),
        /** A generic update feed (electron-builder's latest*.yml); empty: never checks. */
        updateUrl: httpsUrlOrEmpty
          .refine(
            (value) => value === '' || value.toLowerCase().startsWith('https://'),
            'The update address must start with https:// (updates are programs: never unencrypted)',
          )
          .default(''),
      })
      .prefault({}),
    /** Receipts: the roll width, and the printer the desktop app prints to without a dialog. */
    printing: z
      .object({
        /** As the operating system names it; '' means every receipt goes through the dialog. */
        receiptPrinter: z.string().trim().max(200, 'At most 200 characters').default(''),
        paperWidthMm: z.literal(PAPER_WIDTHS_MM, { error: 'Choose 58 or 80 mm' }).default(80),
      })
      .prefault({}),
    /** The shop hub: counters on the shop's network reach this till over its LAN listener. */
    hub: z
      .object({
        /** Off by default: nothing listens beyond this computer until the owner says so. */
        lanEnabled: z.boolean().default(false),
        // Fixed (not 0 = any free port): paired counters keep the address across restarts.
        lanPort: z
          .number()
          .int('A whole port number')
          .min(1024, 'A port from 1024 to 65535')
          .max(65535, 'A port from 1024 to 65535')
          .default(DEFAULT_LAN_PORT),
        /** The address of this computer it listens on: 0.0.0.0 (every address) or one IP. */
        lanHost: z
          .string()
          .trim()
          .refine(
            (host) => ipFamily(host) !== 0,
            'Enter an address of this computer like 192.168.1.20, or choose "All addresses of this computer"',
          )
          .default(DEFAULT_LAN_HOST),
      })
      .prefault({}),
  })
  .superRefine((settings, ctx) => {
    // The secret key travels in every request: outside our sandbox it must be encrypted,
    // unless it never leaves this computer (one rule: provider-url.ts).
    for (const environment of KEYED_ENVIRONMENTS) {
      for (const field of ['baseUrl', 'payoutBaseUrl'] as const) {
        const value = settings.profiles[environment][field];
        const problem = URL.canParse(value)
          ? providerTransportProblem(environment, new URL(value))
          : null;
        if (problem) {
          ctx.addIssue({
            code: 'custom',
            path: ['profiles', environment, field],
            message: `The ${environment} address ${problem}`,
          });
        }
      }
    }
    const { mode, publicUrl } = settings.callbacks;
    if (mode === 'public-url' && publicUrl === '') {
      ctx.addIssue({
        code: 'custom',
        path: ['callbacks', 'publicUrl'],
        message: 'Enter the public address the provider should call, or choose another mode',
      });
    } else if (mode === 'public-url' && URL.canParse(publicUrl)) {
      // The one URL rule: the callback path is a secret, so https, except on this computer.
      const problem = providerTransportProblem('production', new URL(publicUrl));
      if (problem) {
        ctx.addIssue({
          code: 'custom',
          path: ['callbacks', 'publicUrl'],
          message: `The public address must start with https:// (the callback address holds a secret); plain http:// is allowed only to ${LOOPBACK_WORDS}`,
        });
      }
    }
  });
export type Settings = z.infer<typeof settingsSchema>;

/** The default age past which a reduced callback its inflow holds is deleted. */
export const DEFAULT_CALLBACK_ROW_DAYS = 365;

/** The row age in effect: the setting, or the default but never shorter than the bodies' age. */
export function callbackRowDaysOf(retention: Settings['retention']): number {
  return (
    retention.callbackRowDays ?? Math.max(DEFAULT_CALLBACK_ROW_DAYS, retention.callbackBodyDays)
  );
}
/** The shop's choice of how callbacks reach it (`callbacks.mode`); the route follows from it. */
export type ConfiguredCallbackMode = Settings['callbacks']['mode'];

export const DEFAULT_SETTINGS: Settings = settingsSchema.parse({});

/**
 * A settings change from the UI: any subset, merged deeply into the current settings and then
 * validated as a whole. Values are unknown on purpose: they come from the renderer.
 */
export type SettingsPatch = { readonly [K in keyof Settings]?: unknown };
