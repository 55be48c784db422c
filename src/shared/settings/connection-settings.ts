/** The provider's environment, each environment's profile, and how callbacks reach this till. */
import { z } from 'zod';
import { ENVIRONMENTS } from '../environments';
import { httpsUrlOrEmpty, isCidr } from './rules';
import { setting } from './setting';

/** A profile's fields: `*` is each environment (profiles.sandbox, .staging, .production). */
export const PROFILE_SETTINGS = {
  'profiles.*.baseUrl': setting({
    schema: httpsUrlOrEmpty.default(''),
    label: 'Base URL',
    hint: "The provider's address for accounts and transactions, e.g. https://api.provider.example.",
    shortHint: 'The address for accounts and transactions.',
    page: 'environment',
    input: 'url',
  }),
  'profiles.*.payoutBaseUrl': setting({
    schema: httpsUrlOrEmpty.default(''),
    label: 'Payout base URL',
    hint: "The provider's address for the payout balance.",
    shortHint: 'The address for the payout balance.',
    page: 'environment',
    input: 'url',
  }),
  'profiles.*.merchantId': setting({
    schema: z.string().trim().max(100, 'At most 100 characters').default(''),
    label: 'Merchant ID',
    hint: 'The merchant ID the provider gave this shop.',
    page: 'environment',
  }),
  'profiles.*.merchantCategory': setting({
    schema: z
      .string()
      .trim()
      .min(1, 'Enter the merchant category (use "others" when unsure)')
      .max(50, 'At most 50 characters')
      .default('others'),
    label: 'Merchant category',
    hint: 'Use "others" unless the provider says otherwise.',
    shortHint: 'Use "others" unless told otherwise.',
    page: 'environment',
  }),
  'profiles.*.accountName': setting({
    schema: z
      .string()
      .trim()
      .min(1, 'Enter the name customers see on the account')
      .max(100, 'At most 100 characters')
      .default('Transfer Till'),
    label: 'Account display name',
    hint: 'The name customers see on the account when they send the transfer.',
    shortHint: 'The payee name customers see in their bank app.',
    page: 'environment',
  }),
  'profiles.*.expiryMinutes': setting({
    schema: z
      .number()
      .int('Whole minutes only')
      .min(1, 'At least 1 minute')
      .max(1440, 'At most 1440 minutes (a day)')
      .default(15),
    label: 'Default expiry (minutes)',
    hint: "How long each sale's account accepts a transfer, from 1 to 1440 minutes.",
    page: 'environment',
    input: 'numeric',
  }),
  'profiles.*.payoutAccountId': setting({
    schema: z
      .string()
      .trim()
      .max(40, 'At most 40 digits')
      .regex(/^\d*$/, 'Digits only')
      .default(''),
    label: 'Payout account number',
    hint: 'Digits only; the provider gives it together with the payout access token.',
    shortHint: 'Given with the payout access token.',
    page: 'environment',
    input: 'numeric',
  }),
  /**
   * The SANDBOX profile may use a standalone `npm run sandbox` (its control URL) instead of the
   * embedded one, so that several tills train against one provider. Empty: the embedded sandbox.
   */
  'profiles.sandbox.sandboxUrl': setting({
    schema: httpsUrlOrEmpty.default(''),
    label: 'Shared sandbox address',
    page: 'environment',
    input: 'url',
  }),
} as const;

const TUNNEL_EFFECT =
  "the tunnel reconnects, as it does when the ngrok authtoken or basic-auth password changes (only when one of these changed: saving the shop's name does not restart it)";

export const CONNECTION_SETTINGS = {
  environment: setting({
    schema: z.enum(ENVIRONMENTS).default('sandbox'),
    label: 'Environment',
    page: 'environment',
    effect: "at once (the environment's database and provider are swapped; open sales resume)",
  }),
  /** How the provider reaches us: an ngrok tunnel, the shop's own public URL, or none (polling). */
  'callbacks.mode': setting({
    schema: z.enum(['ngrok', 'public-url', 'polling-only']).default('ngrok'),
    label: 'How the provider reaches this till',
    page: 'callbacks',
    effect: 'at once; the route is self-tested',
  }),
  'callbacks.publicUrl': setting({
    schema: httpsUrlOrEmpty.default(''),
    label: 'Public address',
    hint: "The https:// address on the internet that forwards to this till's listener.",
    shortHint: 'e.g. https://pay.myshop.ng (it forwards to the listener port below).',
    page: 'callbacks',
    input: 'url',
    effect: 'at once; the route is self-tested',
  }),
  'callbacks.listenerPort': setting({
    schema: z
      .number()
      .int('A whole port number')
      .min(0, 'A port from 0 (any free port) to 65535')
      .max(65535, 'A port from 0 (any free port) to 65535')
      .default(0),
    label: 'Listener port',
    hint: 'The port this till listens on for callbacks; 0 picks any free port. Applies when saved: the listener moves at once, and a port another program holds is refused.',
    shortHint:
      'The port on this computer your tunnel or forwarding reaches (0: any free port). Applies when saved.',
    page: 'callbacks',
    input: 'numeric',
    effect:
      'the listener moves at once (the new port opens before the old closes); a port another program holds is refused next to the field and the old port keeps working; open sales are checked by polling until their callbacks can arrive again',
  }),
  'callbacks.ngrokDomain': setting({
    schema: z
      .string()
      .trim()
      .max(200, 'At most 200 characters')
      .regex(
        /^$|^[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)+$/,
        'Enter a domain name only, e.g. my-shop.ngrok.app (no https://)',
      )
      .default(''),
    label: 'ngrok reserved domain',
    hint: 'Recommended: a reserved domain (e.g. my-shop.ngrok.app) keeps the callback address fixed across restarts. Empty means a new random address at every start.',
    shortHint: 'Optional: a reserved domain keeps the address fixed.',
    page: 'callbacks',
    effect: TUNNEL_EFFECT,
  }),
  'callbacks.ngrokAllowCidrs': setting({
    schema: z
      .array(
        z
          .string()
          .trim()
          .max(50, 'At most 50 characters')
          .refine(isCidr, 'Enter an IP address or range, e.g. 102.89.0.0/16'),
      )
      .max(50, 'At most 50 ranges')
      .default([]),
    label: 'Allowed IP ranges',
    hint: 'One address or range a line, e.g. 102.89.0.0/16. Only these may call the tunnel; empty allows everyone.',
    page: 'callbacks',
    effect: TUNNEL_EFFECT,
  }),
  'callbacks.ngrokBasicAuthUser': setting({
    schema: z.string().trim().max(60, 'At most 60 characters').default(''),
    label: 'Basic-auth user (optional)',
    hint: 'With a password below, ngrok asks every caller for this user and password. Only if your provider can send them.',
    page: 'callbacks',
    effect: TUNNEL_EFFECT,
  }),
} as const;
