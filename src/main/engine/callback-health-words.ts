/**
 * What the callback health says in words: the cause and the action for each state, and for each
 * kind of problem on each kind of route. Pure: everything it reads is passed in.
 */
import type { CallbackHealthState, CallbackSelfTestView } from '#shared/views';
import type { CallbackRoute } from '#main/tunnel/callback-url';

export type HealthProblem =
  | {
      readonly kind: 'missed-callback';
      readonly since: number;
      readonly saleId: number | null;
      readonly reference: string;
    }
  | {
      readonly kind: 'self-test-failed';
      readonly since: number;
      readonly result: CallbackSelfTestView;
    };

/** What the words depend on: the route, the proof and problem, and the last self-test. */
export interface HealthFacts {
  readonly route: CallbackRoute;
  readonly routeSince: number;
  readonly hasProof: boolean;
  readonly problem: HealthProblem | null;
  readonly lastSelfTest: CallbackSelfTestView | null;
  readonly liveForMs: number;
}

export interface HealthWords {
  readonly cause: string | null;
  readonly action: string | null;
}

export function healthWords(state: CallbackHealthState, facts: HealthFacts): HealthWords {
  const { route, lastSelfTest, routeSince, problem } = facts;
  switch (state) {
    case 'live':
      return { cause: null, action: null };
    case 'off':
      return {
        cause: route.mode === 'polling-only' ? route.reason : null,
        action: `Callbacks need an ngrok tunnel that is online, or your own public address (Settings → Payment callbacks).`,
      };
    case 'unproven': {
      const recent = lastSelfTest !== null && lastSelfTest.at >= routeSince ? lastSelfTest : null;
      if (recent?.code === 'ALLOW_LIST_REFUSED') {
        return { cause: recent.detail, action: recent.action };
      }
      return {
        cause: !facts.hasProof
          ? 'No callback has reached this till yet and no self-test has passed.'
          : `No callback and no passed self-test in the last ${Math.round(facts.liveForMs / 60_000)} minutes.`,
        action:
          'Press "Test callbacks" in Settings to check now. Sales are still confirmed: the till checks each open sale with the provider by itself.',
      };
    }
    case 'not_reaching':
      return problem === null ? { cause: null, action: null } : problemWords(problem, facts);
  }
}

function problemWords(
  current: HealthProblem,
  facts: HealthFacts,
): { readonly cause: string; readonly action: string } {
  const { route, lastSelfTest, routeSince } = facts;
  if (current.kind === 'self-test-failed') {
    return {
      cause: `The callback self-test failed: ${current.result.detail}`,
      action: current.result.action ?? 'Press "Test callbacks" in Settings to check again.',
    };
  }
  const payment =
    current.saleId === null ? `the payment ${current.reference}` : `sale #${current.saleId}`;
  const answers = lastSelfTest?.passed === true && lastSelfTest.at >= routeSince;
  switch (route.mode) {
    case 'local-sandbox':
      return {
        cause: `The sandbox's callback for ${payment} never came: its callbacks personality or a fault drops them.`,
        action: `Check the sandbox's personality and faults (GET /personality, GET /faults).`,
      };
    case 'public-url':
      return {
        cause: answers
          ? `Your public address answers (the self-test passed), but the provider's callback for ${payment} never came: the provider is not sending callbacks to it, or cannot reach it.`
          : `The provider's callback for ${payment} never came through your public address.`,
        action: `Press "Test callbacks" in Settings; check that your server forwards to this till, and ask the provider's support to check the callback set-up for your merchant account.`,
      };
    default:
      return {
        cause: answers
          ? `The tunnel answers (the self-test passed), but the provider's callback for ${payment} never came: ngrok's allow list or basic auth may keep the provider out, or the provider is not sending callbacks to this address.`
          : `The tunnel is up, but the provider's callback for ${payment} never came: the provider cannot reach the tunnel, or does not send.`,
        action: `Check that ngrok's allow list holds the provider's addresses and that the provider sends the basic-auth user and password (if set); press "Test callbacks" in Settings; ask the provider's support to check the callback set-up for your merchant account.`,
      };
  }
}
