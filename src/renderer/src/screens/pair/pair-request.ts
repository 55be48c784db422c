import type { CounterIdentity, PairingResult } from '#shared/hub';
import { refusalCodeOf } from '../../bridge/event-stream';

/** What a pairing code came to: the counter's token, or main's refusal in its words. */
export type PairingOutcome =
  | { readonly ok: true; readonly result: PairingResult }
  | { readonly ok: false; readonly code: string; readonly message: string };

const NOT_ANSWERING =
  "The hub did not answer. Check that this device is on the shop's network and that the hub is running, then open the link again.";
const UNREADABLE = 'The hub sent an answer this page cannot read. Open the link again.';

/** The pairing link's code, as the hub's address bar holds it (`#/pair&code=…`). */
export const PAIRING_CODE = /^[A-Za-z0-9_-]{16,64}$/;

/**
 * Trades a pairing code for the counter's own token: POST /api/pair on the hub's address, with
 * no token (the code is the credential, good once). Main's refusal is shown in main's words.
 */
export async function requestPairing(
  code: string,
  fetchImpl: typeof fetch,
): Promise<PairingOutcome> {
  let response: Response;
  try {
    response = await fetchImpl('/api/pair', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ code }),
      cache: 'no-store',
    });
  } catch {
    return { ok: false, code: 'BRIDGE_OFFLINE', message: NOT_ANSWERING };
  }
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    return { ok: false, code: 'MALFORMED_RESPONSE', message: UNREADABLE };
  }
  if (response.ok) {
    const result = pairingResultOf(body);
    return result
      ? { ok: true, result }
      : { ok: false, code: 'MALFORMED_RESPONSE', message: UNREADABLE };
  }
  return {
    ok: false,
    code: refusalCodeOf(body) ?? `HTTP_${response.status}`,
    message: refusalMessageOf(body) ?? UNREADABLE,
  };
}

/** A PairingResult, bare or inside `{ ok: true, value }`; null when it is not one. */
export function pairingResultOf(body: unknown): PairingResult | null {
  const value = isRecord(body) && body.ok === true && 'value' in body ? body.value : body;
  if (!isRecord(value) || typeof value.token !== 'string' || value.token === '') return null;
  const counter = counterOf(value.counter);
  return counter ? { token: value.token, counter } : null;
}

function counterOf(value: unknown): CounterIdentity | null {
  if (!isRecord(value)) return null;
  const { id, name, tillId } = value;
  if (typeof id !== 'number' || typeof name !== 'string' || typeof tillId !== 'string') {
    return null;
  }
  return { id, name, tillId };
}

function refusalMessageOf(body: unknown): string | null {
  const error = isRecord(body) && isRecord(body.error) ? body.error : body;
  return isRecord(error) && typeof error.message === 'string' && error.message !== ''
    ? error.message
    : null;
}

function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null;
}
