import type { z } from 'zod';
import {
  channels,
  isChannelName,
  type BridgeError,
  type BridgeResult,
  type Handlers,
} from '../../shared/bridge/contract';

/** An error a handler throws on purpose: its code and message are safe to show. */
export interface CodedError {
  readonly code: string;
  readonly message: string;
  readonly field?: string;
}

function isCodedError(error: unknown): error is CodedError {
  if (!(error instanceof Error)) return false;
  const code: unknown = (error as Error & { code?: unknown }).code;
  return typeof code === 'string' && /^[A-Z][A-Z0-9_]*$/.test(code);
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
 * Runs one bridge call: the channel must exist, the input must match its schema, and whatever
 * happens the caller gets a result object, never an exception or a stack trace.
 */
export async function dispatch(
  handlers: Handlers,
  name: unknown,
  rawInput: unknown,
  onUnexpected: (error: unknown, channel: string) => void,
): Promise<BridgeResult<unknown>> {
  if (!isChannelName(name)) {
    return { ok: false, error: { code: 'UNKNOWN_CHANNEL', message: 'Unknown bridge channel.' } };
  }
  const parsed = channels[name].input.safeParse(rawInput ?? {});
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    return {
      ok: false,
      error: first ? describeIssue(first) : { code: 'INVALID_INPUT', message: 'Invalid input.' },
    };
  }
  try {
    const handler = handlers[name] as (input: unknown) => unknown;
    return { ok: true, value: await handler(parsed.data) };
  } catch (error) {
    if (isCodedError(error)) {
      return {
        ok: false,
        error: {
          code: error.code,
          message: error.message,
          ...(error.field ? { field: error.field } : {}),
        },
      };
    }
    onUnexpected(error, name);
    return {
      ok: false,
      error: { code: 'INTERNAL', message: 'Something went wrong. The details are in the log.' },
    };
  }
}
