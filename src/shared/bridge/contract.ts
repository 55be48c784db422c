/**
 * The bridge contract: the one place where a channel or event name is written. Main registers a
 * handler for every channel (checked with `satisfies Handlers`) and validates every input with the
 * channel's schema; preload and the browser shell build the window API from this table.
 */
import { z } from 'zod';
import type { AlertView, InflowView, SaleView } from '../sales';

/** A channel: the schema of its input and, as a phantom type, its output. */
export interface ChannelSpec<I extends z.ZodType, O> {
  readonly input: I;
  readonly output?: O;
}

function channel<O>() {
  return <I extends z.ZodType>(input: I): ChannelSpec<I, O> => ({ input });
}

const noInput = z.object({}).strict();

export type ProviderEnvironment = 'sandbox' | 'staging' | 'production';

export interface AppInfo {
  readonly name: string;
  readonly version: string;
  readonly shell: 'electron' | 'browser';
  readonly environment: ProviderEnvironment;
}

export const channels = {
  getAppInfo: channel<AppInfo>()(noInput),
} as const;

export type ChannelName = keyof typeof channels;
export type ChannelInput<C extends ChannelName> = z.input<(typeof channels)[C]['input']>;
export type ChannelParsedInput<C extends ChannelName> = z.output<(typeof channels)[C]['input']>;
export type ChannelOutput<C extends ChannelName> =
  (typeof channels)[C] extends ChannelSpec<z.ZodType, infer O> ? O : never;

export const channelNames = Object.keys(channels) as readonly ChannelName[];

export function isChannelName(name: unknown): name is ChannelName {
  return typeof name === 'string' && Object.hasOwn(channels, name);
}

/** Events pushed from main to the renderer. */
export interface BridgeEvents {
  readonly 'sale-changed': SaleView;
  readonly inflow: InflowView;
  readonly alert: AlertView;
}
export type EventName = keyof BridgeEvents;
export type BridgeEvent = {
  [E in EventName]: { readonly type: E; readonly payload: BridgeEvents[E] };
}[EventName];

/** An error as the renderer sees it: a code the UI maps to words, never a stack trace. */
export interface BridgeError {
  readonly code: string;
  readonly message: string;
  readonly field?: string;
}

export type BridgeResult<T> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: BridgeError };

/** What main implements: one handler per channel, taking the already validated input. */
export type Handlers = {
  readonly [C in ChannelName]: (
    input: ChannelParsedInput<C>,
  ) => Promise<ChannelOutput<C>> | ChannelOutput<C>;
};

/** What the renderer calls: one function per channel plus an event subscription. */
export type WindowApi = {
  readonly [C in ChannelName]: (input: ChannelInput<C>) => Promise<BridgeResult<ChannelOutput<C>>>;
} & {
  readonly subscribe: (listener: (event: BridgeEvent) => void) => () => void;
};

export type Invoke = (channel: ChannelName, input: unknown) => Promise<BridgeResult<unknown>>;
export type Subscribe = (listener: (event: BridgeEvent) => void) => () => void;

/** IPC channel names used by the Electron shell. */
export const IPC_EVENT_CHANNEL = 'till:event';
export function ipcChannelOf(name: ChannelName): string {
  return `till:${name}`;
}

/** Builds the window API from the table: named functions only, no way to reach other channels. */
export function buildWindowApi(invoke: Invoke, subscribe: Subscribe): WindowApi {
  const api: Record<string, unknown> = { subscribe };
  for (const name of channelNames) {
    api[name] = (input: unknown) => invoke(name, input);
  }
  return Object.freeze(api) as WindowApi;
}
