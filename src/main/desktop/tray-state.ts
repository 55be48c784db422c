import {
  PROVIDER_UNREACHABLE_SHORT,
  PROVIDER_UNREACHABLE_WORDS,
} from '#shared/provider-reach-words';
import type { CallbackHealthState } from '#shared/views';
import type { IconBadge } from './icon-art';
import type { TillSnapshot } from './till-snapshot';
import { updateMenuItem, type UpdateStatus } from './updates';

/**
 * The tray icon's dot: red when the provider cannot be reached or callbacks do not reach the till, amber when alerts wait to be
 * read, blue while a sale waits for its money, none when all is quiet.
 */
export type TrayIconVariant = 'idle' | 'selling' | 'attention' | 'trouble';

export const TRAY_BADGES: Readonly<Record<TrayIconVariant, IconBadge>> = {
  idle: 'none',
  selling: 'blue',
  attention: 'amber',
  trouble: 'red',
};

export type TrayAction =
  | 'show'
  | 'new-sale'
  | 'activity'
  | 'check-updates'
  | 'download-update'
  | 'install-update'
  | 'quit';

export type TrayMenuItem =
  | { readonly kind: 'label'; readonly label: string }
  | { readonly kind: 'action'; readonly action: TrayAction; readonly label: string }
  | { readonly kind: 'separator' };

export interface TrayInput {
  /** null while the core is starting or could not be read. */
  readonly till: TillSnapshot | null;
  readonly update: UpdateStatus;
}

export interface TrayState {
  readonly tooltip: string;
  readonly iconVariant: TrayIconVariant;
  readonly menu: readonly TrayMenuItem[];
}

/** Windows cuts tray tooltips at 127 characters. */
export const TOOLTIP_MAX = 127;

const CALLBACK_WORDS: Readonly<Record<CallbackHealthState, { short: string; long: string }>> = {
  live: { short: 'callbacks live', long: 'Callbacks live' },
  unproven: { short: 'callbacks not proven yet', long: 'Callbacks not proven yet' },
  not_reaching: {
    short: 'callbacks not reaching',
    long: 'Callbacks not reaching the till: it checks each sale itself',
  },
  off: { short: 'callbacks off', long: 'Callbacks off: the till checks each sale itself' },
};

/** The payment news in words: a provider that cannot be reached replaces any callback claim. */
function newsWords(till: TillSnapshot): { short: string; long: string } {
  return till.providerUnreachable === true
    ? { short: PROVIDER_UNREACHABLE_SHORT, long: PROVIDER_UNREACHABLE_WORDS }
    : CALLBACK_WORDS[till.callbacks];
}

function count(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

function iconVariantOf(till: TillSnapshot): TrayIconVariant {
  if (till.providerUnreachable === true || till.callbacks === 'not_reaching') return 'trouble';
  if (till.openAlerts > 0) return 'attention';
  if (till.openSales > 0) return 'selling';
  return 'idle';
}

function capped(text: string): string {
  return text.length <= TOOLTIP_MAX ? text : `${text.slice(0, TOOLTIP_MAX - 1)}…`;
}

const SEPARATOR: TrayMenuItem = { kind: 'separator' };
const QUIT: TrayMenuItem = { kind: 'action', action: 'quit', label: 'Quit Transfer Till' };
const SHOW: TrayMenuItem = { kind: 'action', action: 'show', label: 'Open the till' };

/** The tray icon, its tooltip and its menu for the till as it is now. */
export function trayState(input: TrayInput): TrayState {
  const { till, update } = input;
  const updateItem = updateMenuItem(update);
  const updateItems: TrayMenuItem[] = updateItem ? [updateItem, SEPARATOR] : [];
  if (!till) {
    return {
      tooltip: 'Transfer Till: starting…',
      iconVariant: 'idle',
      menu: [SHOW, SEPARATOR, ...updateItems, QUIT],
    };
  }
  const sales =
    till.openSales === 0
      ? 'no sale waiting'
      : count(till.openSales, 'sale waiting', 'sales waiting');
  const tooltipParts = [
    `Transfer Till${till.environment === 'production' ? '' : ` (${till.environment})`}`,
    sales,
    ...(till.openAlerts > 0 ? [count(till.openAlerts, 'alert', 'alerts')] : []),
    newsWords(till).short,
  ];
  const status: TrayMenuItem[] = [
    {
      kind: 'label',
      label:
        till.openSales === 0
          ? 'No sale waiting for payment'
          : `${count(till.openSales, 'sale', 'sales')} waiting for payment`,
    },
    { kind: 'label', label: newsWords(till).long },
  ];
  if (till.standingAccounts > 0) {
    status.push({
      kind: 'label',
      label: `${count(till.standingAccounts, 'standing account', 'standing accounts')} taking payments`,
    });
  }
  if (till.openAlerts > 0) {
    status.push({
      kind: 'action',
      action: 'activity',
      label: `${count(till.openAlerts, 'alert', 'alerts')} to read…`,
    });
  }
  return {
    tooltip: capped(`${tooltipParts[0]}: ${tooltipParts.slice(1).join(' · ')}`),
    iconVariant: iconVariantOf(till),
    menu: [
      ...status,
      SEPARATOR,
      SHOW,
      { kind: 'action', action: 'new-sale', label: 'New sale' },
      SEPARATOR,
      ...updateItems,
      QUIT,
    ],
  };
}
