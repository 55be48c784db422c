import { z } from 'zod';
import { ENVIRONMENTS } from '../../environments';
import type { ConnectionSavedView, GoLiveCheckView } from '../../go-live';
import type {
  CallbackHealthView,
  ConnectionCheckView,
  SecretStatusView,
  SecretsView,
  SettingsView,
} from '../../views';
import { channel, noInput } from './channel';

/** Settings (secrets go in, only their status comes out) and the checks of what they set up. */
export const settingsChannels = {
  getSettings: channel<SettingsView>()(noInput),
  updateSettings: channel<SettingsView>()(
    z.object({ patch: z.record(z.string(), z.unknown()) }).strict(),
  ),
  /**
   * The first start's question: names the shop (at most 100 characters, checked in main) and
   * makes it the account display name of every environment still on the starting default.
   */
  setShopName: channel<SettingsView>()(
    z.object({ name: z.string().max(1000, 'At most 100 characters') }).strict(),
  ),
  getSecrets: channel<SecretsView>()(z.object({ environment: z.enum(ENVIRONMENTS) }).strict()),
  setSecret: channel<SecretStatusView>()(
    z.discriminatedUnion('scope', [
      z
        .object({
          scope: z.enum(ENVIRONMENTS),
          name: z.enum(['secretKey', 'accessToken']),
          value: z.string().max(600).nullable(),
        })
        .strict(),
      z
        .object({
          scope: z.literal('global'),
          name: z.enum(['ngrokAuthtoken', 'ngrokBasicAuthPassword']),
          value: z.string().max(600).nullable(),
        })
        .strict(),
    ]),
  ),
  testConnection: channel<readonly ConnectionCheckView[]>()(
    z.object({ environment: z.enum(ENVIRONMENTS) }).strict(),
  ),
  rotateCallbackToken: channel<{ readonly rotated: boolean }>()(noInput),
  /** The callback self-test: posts a one-time nonce to this till's own public callback address. */
  testCallbacks: channel<CallbackHealthView>()(noInput),
  /** The go-live flow's one Save: an environment's profile, its keys and the callback route. */
  saveConnection: channel<ConnectionSavedView>()(
    z
      .object({
        environment: z.enum(ENVIRONMENTS),
        profile: z.record(z.string(), z.unknown()),
        callbacks: z.record(z.string(), z.unknown()).optional(),
        secrets: z
          .object({
            secretKey: z.string().max(600).nullable().optional(),
            accessToken: z.string().max(600).nullable().optional(),
            ngrokAuthtoken: z.string().max(600).nullable().optional(),
            ngrokBasicAuthPassword: z.string().max(600).nullable().optional(),
          })
          .strict()
          .optional(),
      })
      .strict(),
  ),
  /**
   * "Check everything": the connection, the payout balance, the callback route and a trial
   * account (always on STAGING; on LIVE only with `trialAccount: true`), in one run.
   */
  checkEverything: channel<GoLiveCheckView>()(
    z.object({ environment: z.enum(ENVIRONMENTS), trialAccount: z.boolean().optional() }).strict(),
  ),
} as const;
