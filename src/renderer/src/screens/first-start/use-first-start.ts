import type { SettingsView } from '#shared/views';
import { useBridgeCall } from '../../hooks/use-bridge-call';

/** Gives main the shop's name; main checks it and answers with the name as saved (trimmed). */
export function useShopName(): {
  readonly busy: boolean;
  readonly error: string | null;
  readonly save: (name: string) => Promise<string | null>;
} {
  const { busy, error, run } = useBridgeCall<SettingsView>();
  async function save(name: string): Promise<string | null> {
    const answer = await run((bridge) => bridge.setShopName({ name }));
    return answer?.ok ? answer.value.settings.shop.name : null;
  }
  return { busy, error, save };
}
