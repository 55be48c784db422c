import type { ChannelInput } from '#shared/bridge/contract';
import type { ConnectionCheckView } from '#shared/views';
import { useBridgeCall } from '../../hooks/use-bridge-call';

export interface ConnectionTestRun {
  readonly busy: boolean;
  /** One line per service once a test answered (none while one runs or after a refusal). */
  readonly results: readonly ConnectionCheckView[] | null;
  readonly error: string | null;
  readonly run: () => Promise<void>;
}

/** "Test connection" for one environment: a harmless read of each service. */
export function useConnectionTest(
  environment: ChannelInput<'testConnection'>['environment'],
): ConnectionTestRun {
  const call = useBridgeCall<readonly ConnectionCheckView[]>();
  const { run: runCall } = call;
  async function run(): Promise<void> {
    await runCall((bridge) => bridge.testConnection({ environment }));
  }
  return {
    busy: call.busy,
    results: call.busy || call.error !== null ? null : call.result,
    error: call.error,
    run,
  };
}
