/** The shop and this till, its cashiers, its day, its limits and its outage rules. */
import { z } from 'zod';
import { OUTAGE_POLICIES } from '../sales';
import { LEGACY_TILL_ID, tillIdProblem } from '../till-id';
import { isTimeZone } from './rules';
import { setting } from './setting';

/** What sales show as the shop's name until the owner names the shop. */
export const DEFAULT_SHOP_NAME = 'My Shop';

const cashierNames = z
  .array(
    z.string().trim().min(1, 'A cashier name cannot be empty').max(60, 'At most 60 characters'),
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
  });

const kobo = (min: number, minWords: string) =>
  z
    .number()
    .int('Whole kobo only')
    .min(min, minWords)
    .max(100_000_000_000, 'At most ₦1,000,000,000.00');

export const SHOP_SETTINGS = {
  'shop.name': setting({
    schema: z
      .string()
      .trim()
      .min(1, 'Enter the shop name')
      .max(100, 'At most 100 characters')
      .default(DEFAULT_SHOP_NAME),
    label: 'Shop name',
    hint: 'Printed on receipts and shown on the customer display.',
    page: 'shop',
  }),
  /**
   * Whether the owner has told the till the shop's name (the first-start screen asks once).
   * True when absent: a settings file from before the question was asked belongs to a till
   * that was set up already; a fresh till's file is written with false on its first start
   * (src/main/settings/shop-name.ts).
   */
  'shop.nameConfirmed': setting({
    schema: z.boolean().default(true),
    label: 'Shop name given at first start',
    page: null,
  }),
  // Checked by a refinement, not a JSON Schema pattern: an older install's id (which could
  // hold '_' and be longer) must reach the settings file migration, not be refused by conf.
  // A fresh install is given a unique id on first start; the default is the old one.
  'shop.tillId': setting({
    schema: z
      .string()
      .trim()
      .superRefine((tillId, ctx) => {
        const problem = tillIdProblem(tillId);
        if (problem) ctx.addIssue({ code: 'custom', message: problem });
      })
      .default(LEGACY_TILL_ID),
    label: 'Till id',
    hint: 'Names this till in reports and starts every reference it makes: letters, digits and -, at most 16 (e.g. till-a7k2). Each till of the shop needs its own.',
    page: 'shop',
  }),
  'shop.cashiers': setting({ schema: cashierNames, label: 'Cashiers', page: 'shop' }),
  timeZone: setting({
    schema: z.string().trim().refine(isTimeZone, 'Unknown time zone').default('Africa/Lagos'),
    label: 'Time zone',
    hint: 'A time zone name such as Africa/Lagos (the default).',
    page: 'shop',
    effect: "at once (the environment's runtime is rebuilt, as a switch does)",
  }),
  dayCutoffHour: setting({
    schema: z
      .number()
      .int('A whole hour from 0 to 23')
      .min(0, 'A whole hour from 0 to 23')
      .max(23, 'A whole hour from 0 to 23')
      .default(0),
    label: 'End-of-day cut-off hour',
    hint: 'The hour (0 to 23) at which the business day ends and the next begins; 0 is midnight.',
    page: 'shop',
    input: 'numeric',
  }),
  /** The largest sale the till accepts, in kobo (₦5,000,000 by default). */
  maxSaleKobo: setting({
    schema: kobo(100, 'At least ₦1.00').default(500_000_000),
    label: 'Largest sale (₦)',
    page: 'shop',
    input: 'decimal',
  }),
  /**
   * The merchant account also receives transfers from other channels (a POS, a website): money
   * with no reference of this shop is then "Other income on this account", counted apart, not a
   * case for a person.
   */
  'report.otherIncome': setting({
    schema: z.boolean().default(false),
    label: 'This account also receives transfers from other channels',
    page: 'shop',
  }),
  /**
   * A standing (static-flex counter) account takes any amount by design: a success above this
   * many kobo into one is flagged for a person (an alert and a report exception). 0: off.
   */
  'standingAccounts.flagAboveKobo': setting({
    schema: kobo(0, '0 (off) or more').default(0),
    label: 'Flag a payment into a standing account above (₦)',
    page: 'shop',
    input: 'decimal',
  }),
  /**
   * While an outage sale waits for its money to be seen: 'wait' keeps the goods until it is
   * confirmed; 'hand_over' lets the cashier give them when the customer's screen shows the
   * transfer (recorded on the sale).
   */
  'outage.policy': setting({
    schema: z.enum(OUTAGE_POLICIES).default('wait'),
    label: 'Outage sales: the goods',
    page: 'shop',
  }),
  /** The owner lets cashiers take outage sales even while the provider answers. */
  'outage.allowByChoice': setting({
    schema: z.boolean().default(false),
    label: 'Allow outage sales while the provider answers',
    page: 'shop',
  }),
  /** The owner's option: every cashier needs their own PIN to sign in (PINs live in main). */
  'roles.cashierPins': setting({
    schema: z.boolean().default(false),
    label: 'Cashiers need their own PIN to sign in',
    page: 'roles',
  }),
} as const;
