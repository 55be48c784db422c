/**
 * The settings in zod: the one source of their shape, defaults and rules, composed here from the
 * registry's entries (src/shared/settings/). The JSON Schema that conf / electron-store check the
 * file with is derived from this (see backend-options.ts); zod stays the authority because JSON
 * Schema cannot express the refinements below.
 */
import { z } from 'zod';
import { LOOPBACK_WORDS, providerTransportProblem } from './provider-url';
import { KEYED_ENVIRONMENTS } from './environments';
import { shapeOf } from './settings/registry';

export {
  ENVIRONMENT_NAMES,
  ENVIRONMENTS,
  KEYED_ENVIRONMENTS,
  type Environment,
  type KeyedEnvironment,
} from './environments';
export { ipFamily, urlProblem } from './settings/rules';
export { DEFAULT_SHOP_NAME } from './settings/shop-settings';

/** Everything about one provider environment except its secrets (those live in the secret store). */
export const profileSchema = z.object(shapeOf('profiles.*'));
export type Profile = z.infer<typeof profileSchema>;

/** The SANDBOX profile: a profile, and the shared training sandbox it may use instead. */
export const sandboxProfileSchema = profileSchema.extend(shapeOf('profiles.sandbox'));
export type SandboxProfile = z.infer<typeof sandboxProfileSchema>;

/** Saying the amount of a paid sale out loud (the renderer's voice/ folder speaks it). */
export const voiceSettingsSchema = z.object(shapeOf('sounds.voice'));
export type VoiceSettings = z.infer<typeof voiceSettingsSchema>;
export const DEFAULT_VOICE_SETTINGS: VoiceSettings = voiceSettingsSchema.parse({});

/** The top-level settings: the environment, and after the shop its day and largest sale. */
const { environment, ...topLevel } = shapeOf('');

export const settingsSchema = z
  .object({
    // The environment first and the rest after the shop: the first problem named is unchanged.
    environment,
    profiles: z
      .object({
        sandbox: sandboxProfileSchema.prefault({}),
        staging: profileSchema.prefault({}),
        production: profileSchema.prefault({}),
      })
      .prefault({}),
    shop: z.object(shapeOf('shop')).prefault({}),
    ...topLevel,
    callbacks: z.object(shapeOf('callbacks')).prefault({}),
    report: z.object(shapeOf('report')).prefault({}),
    standingAccounts: z.object(shapeOf('standingAccounts')).prefault({}),
    /** Selling through an outage on the till's standing account (issue 35). */
    outage: z.object(shapeOf('outage')).prefault({}),
    sync: z.object(shapeOf('sync')).prefault({}),
    sounds: z
      .object({
        ...shapeOf('sounds'),
        // Inside `sounds` so that it reaches every counter with the session, as the chime does.
        // Optional: a settings object from before the voice (and an older main) stays valid;
        // absent means DEFAULT_VOICE_SETTINGS.
        voice: voiceSettingsSchema.optional(),
      })
      .prefault({}),
    backups: z.object(shapeOf('backups')).prefault({}),
    /** How long the store keeps data whole (src/main/store/retention.ts states every rule). */
    retention: z
      .object(shapeOf('retention'))
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
    roles: z.object(shapeOf('roles')).prefault({}),
    /** The desktop app only (the browser shell keeps them but does not act on them). */
    desktop: z.object(shapeOf('desktop')).prefault({}),
    /** Receipts: the roll width, and the printer the desktop app prints to without a dialog. */
    printing: z.object(shapeOf('printing')).prefault({}),
    /** The shop hub: counters on the shop's network reach this till over its LAN listener. */
    hub: z.object(shapeOf('hub')).prefault({}),
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
