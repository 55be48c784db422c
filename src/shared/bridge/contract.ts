/**
 * The bridge contract: the one place where a channel or event name is written. Main registers a
 * handler for every channel (checked with `satisfies Handlers`) and validates every input with the
 * channel's schema; preload and the browser shell build the window API from this table.
 *
 * The table is written one group per domain in contract/<group>.ts; each `<group>Channels` has
 * all its handlers in one file, `<group>Handlers` (typed `HandlersOf<typeof <group>Channels>`).
 * This module puts the groups together and is what the rest of the code imports.
 */
import type { z } from 'zod';
import type { AssertTrue, Disjoint } from './disjoint';
import type { Caller } from './session-types';
import type { AppErrorCode } from '../errors';
import type { AccessLevel, ChannelSpec } from './contract/channel';
import type { BridgeEvent } from './contract/events';
import { appChannels } from './contract/app';
import { hubChannels } from './contract/hub';
import { payoutChannels } from './contract/payouts';
import { printingChannels } from './contract/printing';
import { exceptionChannels, reportChannels } from './contract/reports';
import { saleChannels } from './contract/sales';
import { sessionChannels } from './contract/session';
import { settingsChannels } from './contract/settings';
import { shellChannels } from './contract/shell';
import { syncChannels } from './contract/sync';

export {
  ACCESS_LEVELS,
  OWNED_ITEMS,
  type AccessLevel,
  type ChannelSpec,
  type OwnedInput,
  type OwnedItem,
} from './contract/channel';
export { appChannels, type AppInfo } from './contract/app';
export { sessionChannels } from './contract/session';
export { saleChannels, type ActivityView } from './contract/sales';
export { printingChannels } from './contract/printing';
export { syncChannels } from './contract/sync';
export { exceptionChannels, reportChannels } from './contract/reports';
export { payoutChannels } from './contract/payouts';
export { settingsChannels } from './contract/settings';
export { shellChannels, type ShellAccessView } from './contract/shell';
export { hubChannels } from './contract/hub';
export type { BridgeEvent, BridgeEvents, EventName } from './contract/events';
export type { Caller, CallerVia, Role, SessionView } from './session-types';
export { RENDERER_ERROR_LIMITS, SESSION_HEADER } from './wire';

/** Every channel: the groups together. */
export const channels = {
  ...appChannels,
  ...sessionChannels,
  ...saleChannels,
  ...printingChannels,
  ...syncChannels,
  ...reportChannels,
  ...exceptionChannels,
  ...payoutChannels,
  ...settingsChannels,
  ...shellChannels,
  ...hubChannels,
} as const;

/** A name in two groups would silently lose one of its specs in the spread above: a type error. */
export type _ChannelGroupsAreDisjoint = AssertTrue<
  Disjoint<
    [
      typeof appChannels,
      typeof sessionChannels,
      typeof saleChannels,
      typeof printingChannels,
      typeof syncChannels,
      typeof reportChannels,
      typeof exceptionChannels,
      typeof payoutChannels,
      typeof settingsChannels,
      typeof shellChannels,
      typeof hubChannels,
    ]
  >
>;

export type ChannelName = keyof typeof channels;
/** What a channel spec answers (its phantom output type). */
type SpecOutput<S> = S extends ChannelSpec<z.ZodType, infer O> ? O : never;
export type ChannelInput<C extends ChannelName> = z.input<(typeof channels)[C]['input']>;
export type ChannelParsedInput<C extends ChannelName> = z.output<(typeof channels)[C]['input']>;
export type ChannelOutput<C extends ChannelName> = SpecOutput<(typeof channels)[C]>;

export const channelNames = Object.keys(channels) as readonly ChannelName[];

export function isChannelName(name: unknown): name is ChannelName {
  return typeof name === 'string' && Object.hasOwn(channels, name);
}

/** An error as the renderer sees it: a code the UI maps to words, never a stack trace. */
export interface BridgeError {
  readonly code: AppErrorCode;
  readonly message: string;
  readonly field?: string;
}

export type BridgeResult<T> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: BridgeError };

export function accessOf(name: ChannelName): AccessLevel {
  return channels[name].access;
}

/** A group of the table, e.g. `typeof saleChannels`. */
export type ChannelGroup = Readonly<Record<string, ChannelSpec<z.ZodType, unknown>>>;

/**
 * What main implements for a group: one handler per channel, taking the already validated input
 * and the caller (already checked against the channel's access level). A handler file returns
 * `HandlersOf<typeof itsGroup>`, so that it never writes the group's channel names again.
 */
export type HandlersOf<G extends ChannelGroup> = {
  readonly [C in keyof G]: (
    input: z.output<G[C]['input']>,
    caller: Caller,
  ) => Promise<SpecOutput<G[C]>> | SpecOutput<G[C]>;
};

/** What main implements: every channel of the table. */
export type Handlers = HandlersOf<typeof channels>;

/** Groups whose handlers differ per shell (only the browser shell has a token to rotate): the
 * core's table leaves them out, and each shell hands in its part (`Core.handlersFor`). */
export const perShellGroups = { shellChannels } as const;
type KeysOf<G> = G extends unknown ? keyof G : never;
/** What the core answers by itself: every channel but the per-shell groups'. */
export type CoreHandlers = HandlersOf<
  Omit<typeof channels, KeysOf<(typeof perShellGroups)[keyof typeof perShellGroups]>>
>;

/** What the renderer calls: one function per channel plus an event subscription. */
export type WindowApi = {
  readonly [C in ChannelName]: (input: ChannelInput<C>) => Promise<BridgeResult<ChannelOutput<C>>>;
} & {
  readonly subscribe: (listener: (event: BridgeEvent) => void) => () => void;
};

// The zod-free part, which the sandboxed preload imports on its own.
export {
  IPC_EVENT_CHANNEL,
  ipcChannelOf,
  windowApiOf,
  type DisplayApi,
  type Invoke,
  type Subscribe,
} from './window-api';
