import type { WindowApi } from '#shared/bridge/contract';
import { windowApiOf, type Invoke, type Subscribe } from '#shared/bridge/window-api';
import { channelNames } from '#shared/schema-data';

/**
 * The window API from the table's channel names: named functions only, no way to reach other
 * channels. The names come as data (src/shared/schema-data.ts), not with the table's schemas.
 */
export function buildWindowApi(invoke: Invoke, subscribe: Subscribe): WindowApi {
  return windowApiOf(channelNames, invoke, subscribe);
}
