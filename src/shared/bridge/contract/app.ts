import type { Environment } from '../../environments';
import type { StatusView } from '../../views';
import { channel, noInput } from './channel';

export interface AppInfo {
  readonly name: string;
  readonly version: string;
  readonly shell: 'electron' | 'browser';
  readonly environment: Environment;
}

/** The app itself: who it is and how it stands. */
export const appChannels = {
  getAppInfo: channel<AppInfo>()(noInput, 'open'),
  getStatus: channel<StatusView>()(noInput, 'open'),
} as const;
