import type { BridgeResult, ChannelInput, SessionView } from '#shared/bridge/contract';
import { useBridge } from '../../bridge-context';
import { failureOf, useBridgeCall, type CallFailure } from '../../hooks/use-bridge-call';

/** Main's answer to a PIN change: the session now, or the refusal in words (and its field). */
export type PinAnswer =
  | { readonly ok: true; readonly session: SessionView }
  | { readonly ok: false; readonly failure: CallFailure };

function pinAnswerOf(answer: BridgeResult<SessionView>): PinAnswer {
  return answer.ok
    ? { ok: true, session: answer.value }
    : { ok: false, failure: failureOf(answer.error) };
}

export interface OwnerPinCalls {
  /** A call about the owner PIN is on its way. */
  readonly busy: boolean;
  readonly setOwnerPin: (input: ChannelInput<'setOwnerPin'>) => Promise<PinAnswer | null>;
  readonly removeOwnerPin: (input: ChannelInput<'removeOwnerPin'>) => Promise<PinAnswer | null>;
}

/** Setting, changing and removing the owner PIN (one at a time). */
export function useOwnerPin(): OwnerPinCalls {
  const call = useBridgeCall<SessionView>();
  const { run } = call;
  // null: the answer no longer counts (the page has gone).
  const settle = (answer: BridgeResult<SessionView> | null) =>
    answer === null ? null : pinAnswerOf(answer);
  return {
    busy: call.busy,
    setOwnerPin: async (input) => settle(await run((bridge) => bridge.setOwnerPin(input))),
    removeOwnerPin: async (input) => settle(await run((bridge) => bridge.removeOwnerPin(input))),
  };
}

/**
 * Setting or removing one cashier's PIN. Each cashier's row answers for itself (two rows may be
 * saved at once), so these are not one useBridgeCall, whose newest call alone would land.
 */
export function useCashierPins(): (input: ChannelInput<'setCashierPin'>) => Promise<PinAnswer> {
  const bridge = useBridge();
  return async (input) => pinAnswerOf(await bridge.setCashierPin(input));
}
