import type { z } from 'zod';
import {
  channels,
  isChannelName,
  type BridgeError,
  type BridgeResult,
  type Caller,
} from '#shared/bridge/contract';
import { accessRefusal, effectiveRole } from '#main/auth/caller';
import { OWNERSHIP, ownershipRefusal, type OwnedHandlers } from '#main/auth/ownership';
import { isAppError } from '#shared/errors';

const REFUSALS: Readonly<Record<'FORBIDDEN' | 'SIGNED_OUT', string>> = {
  FORBIDDEN: 'Only the owner can do this. Unlock with the owner PIN.',
  SIGNED_OUT: 'Sign in at this till first.',
};

/** What the caller gets for anything thrown that is not an AppError: a bug, logged in main. */
const INTERNAL_ERROR: BridgeError = {
  code: 'INTERNAL',
  message: 'Something went wrong. The details are in the log.',
};

/**
 * An error a handler throws on purpose (an AppError) in the bridge's shape: its code, its
 * message (written to be shown) and its field. Anything else, even an Error with a `code`
 * (Node's ENOENT, SQLite's SQLITE_BUSY), is not meant for the caller: null.
 */
export function bridgeErrorOf(error: unknown): BridgeError | null {
  if (!isAppError(error)) return null;
  return {
    code: error.code,
    message: error.message,
    ...(error.field ? { field: error.field } : {}),
  };
}

function describeIssue(issue: z.core.$ZodIssue): BridgeError {
  const field = issue.path.map(String).join('.');
  return {
    code: 'INVALID_INPUT',
    message: field ? `${field}: ${issue.message}` : issue.message,
    ...(field ? { field } : {}),
  };
}

/**
 * Runs one bridge call: the channel must exist, the caller's role must reach the channel's access
 * level, the input must match its schema, the caller must own the sale or alert the channel
 * declares (see auth/ownership.ts), and whatever happens the caller gets a result object, never an
 * exception or a stack trace. The role is checked before the input, so that a refused caller
 * learns nothing about what the channel accepts.
 */
export async function dispatch(
  handlers: OwnedHandlers,
  name: unknown,
  rawInput: unknown,
  onUnexpected: (error: unknown, channel: string) => void,
  caller: Caller,
): Promise<BridgeResult<unknown>> {
  if (!isChannelName(name)) {
    return { ok: false, error: { code: 'UNKNOWN_CHANNEL', message: 'Unknown bridge channel.' } };
  }
  const refusal = accessRefusal(channels[name].access, caller);
  if (refusal) return { ok: false, error: { code: refusal, message: REFUSALS[refusal] } };
  const parsed = channels[name].input.safeParse(rawInput ?? {});
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    return {
      ok: false,
      error: first ? describeIssue(first) : { code: 'INVALID_INPUT', message: 'Invalid input.' },
    };
  }
  try {
    const owns = channels[name].owns;
    const notYours = owns ? ownershipRefusal(owns, parsed.data, caller, handlers[OWNERSHIP]) : null;
    if (notYours) return { ok: false, error: notYours };
    const handler = handlers[name] as (input: unknown, caller: Caller) => unknown;
    const acting: Caller = { ...caller, role: effectiveRole(caller) };
    return { ok: true, value: await handler(parsed.data, acting) };
  } catch (error) {
    const expected = bridgeErrorOf(error);
    if (expected) return { ok: false, error: expected };
    onUnexpected(error, name);
    return { ok: false, error: INTERNAL_ERROR };
  }
}
