import { useCallback, useEffect, useRef, useState } from 'react';
import type { BridgeError, BridgeResult, WindowApi } from '#shared/bridge/contract';
import { useBridge } from '../bridge-context';
import { cashierMessage } from '../errors';

/** A refusal from main as the page shows it: words for the person, and the field it names. */
export interface CallFailure {
  readonly words: string;
  /** The input field main named (e.g. 'name'), else null. */
  readonly field: string | null;
  readonly code: string;
}

/** The one place a bridge failure becomes words (cashierMessage keeps the words themselves). */
export function failureOf(error: BridgeError): CallFailure {
  return { words: cashierMessage(error), field: error.field ?? null, code: error.code };
}

/** One call to main, as a screen's hook makes it: `(bridge) => bridge.createSale(input)`. */
export type CallOf<T> = (bridge: WindowApi) => Promise<BridgeResult<T>>;

export interface BridgeCall<T> {
  /** A call is on its way (the newest one, if several were started). */
  readonly busy: boolean;
  /** The newest call's refusal in words, or words the screen set itself (`showError`). */
  readonly error: string | null;
  /** The field main named in that refusal, else null. */
  readonly errorField: string | null;
  /** The newest call's answer once it succeeded (kept until another call succeeds). */
  readonly result: T | null;
  /**
   * Makes the call. Resolves to main's answer, or to null when the answer no longer counts: a
   * newer call was started meanwhile, or the screen has gone (its state is then left alone).
   */
  readonly run: (call: CallOf<T>) => Promise<BridgeResult<T> | null>;
  /** Shows the screen's own words in the error slot (null clears it). */
  readonly showError: (words: string | null) => void;
}

interface CallState<T> {
  readonly busy: boolean;
  readonly failure: { readonly words: string; readonly field: string | null } | null;
  readonly result: T | null;
}

/**
 * A call to main with what a screen shows about it: busy while it runs, main's refusal in
 * words (through `failureOf`), the answer. Only the newest call's answer lands; an answer that
 * arrives after the screen unmounted is dropped.
 */
export function useBridgeCall<T>(): BridgeCall<T> {
  const bridge = useBridge();
  const [state, setState] = useState<CallState<T>>({ busy: false, failure: null, result: null });
  const latest = useRef(0);
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  const run = useCallback(
    async (call: CallOf<T>): Promise<BridgeResult<T> | null> => {
      const ticket = ++latest.current;
      setState((current) => ({ ...current, busy: true, failure: null }));
      const answer = await call(bridge);
      if (!mounted.current || ticket !== latest.current) return null;
      setState((current) =>
        answer.ok
          ? { busy: false, failure: null, result: answer.value }
          : { ...current, busy: false, failure: failureOf(answer.error) },
      );
      return answer;
    },
    [bridge],
  );

  const showError = useCallback((words: string | null) => {
    setState((current) =>
      current.failure === null && words === null
        ? current
        : { ...current, failure: words === null ? null : { words, field: null } },
    );
  }, []);

  return {
    busy: state.busy,
    error: state.failure?.words ?? null,
    errorField: state.failure?.field ?? null,
    result: state.result,
    run,
    showError,
  };
}
