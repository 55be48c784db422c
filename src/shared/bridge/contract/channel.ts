/**
 * The parts every group of the channel table is written with: who may call a channel, the item
 * it acts on, the spec itself and the inputs more than one group takes.
 */
import { z } from 'zod';

/**
 * Who may call a channel. 'open': anyone holding the shell's token, signed in or not (the app's
 * identity, its status, the sign-in channels). 'cashier': a signed-in cashier (selling, their own
 * sales). 'owner': the owner (Settings, secrets, Balance, the report's money, CSV, sync).
 */
export const ACCESS_LEVELS = ['open', 'cashier', 'owner'] as const;
export type AccessLevel = (typeof ACCESS_LEVELS)[number];

/** The items a caller may own: a sale (its till's, its cashier's) and an alert (by its sale). */
export const OWNED_ITEMS = ['sale', 'alert'] as const;
export type OwnedItem = (typeof OWNED_ITEMS)[number];

/**
 * A channel that acts on one sale or alert names the input field holding its id: main checks
 * that the caller owns that item before the handler runs (a cashier their own sales, a counter
 * its till's, the owner all), so no handler has to remember to.
 */
export interface OwnedInput<Field extends string = string> {
  readonly item: OwnedItem;
  readonly field: Field;
}

/** A channel: the schema of its input, who may call it and, as a phantom type, its output. */
export interface ChannelSpec<I extends z.ZodType, O> {
  readonly input: I;
  readonly access: AccessLevel;
  /** The sale or alert the call acts on, checked against the caller by dispatch. */
  readonly owns?: OwnedInput;
  readonly output?: O;
}

/** The access defaults to 'owner': a channel nobody thought to mark stays owner-only. */
export function channel<O>() {
  return <I extends z.ZodType>(
    input: I,
    access: AccessLevel = 'owner',
    owns?: OwnedInput<keyof z.output<I> & string>,
  ): ChannelSpec<I, O> => ({ input, access, ...(owns ? { owns } : {}) });
}

export const ownsSale = { item: 'sale', field: 'saleId' } as const;
export const ownsAlert = { item: 'alert', field: 'alertId' } as const;

export const noInput = z.object({}).strict();
/** Naira as the cashier typed it ("1500", "1,500.50"); main converts it to kobo exactly. */
export const nairaText = z.string().trim().min(1, 'Enter an amount').max(24);
