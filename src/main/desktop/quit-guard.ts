import type { TillSnapshot } from './till-snapshot';

export interface QuitInput {
  readonly till: TillSnapshot | null;
  /** The person already answered "Quit anyway" (or the OS is ending the session). */
  readonly confirmed: boolean;
  /** A plain quit, or a restart to install a downloaded update. */
  readonly purpose: 'quit' | 'update';
}

/** Electron's showMessageBox options, as far as the question needs them. */
export interface QuitDialog {
  readonly type: 'warning';
  readonly title: string;
  readonly message: string;
  readonly detail: string;
  readonly buttons: readonly string[];
  readonly defaultId: number;
  readonly cancelId: number;
  readonly noLink: true;
}

export type QuitDecision =
  { readonly kind: 'quit' } | { readonly kind: 'ask'; readonly dialog: QuitDialog };

/** The button that quits; the other (the default, and Escape) keeps the till running. */
export const QUIT_ANYWAY_BUTTON = 1;

/**
 * Quitting stops the webhook listener and the till's own checks, so a sale paid meanwhile
 * shows as paid only after the next start: with open sales, ask first. Nothing else blocks a
 * quit (an unreadable till included: a broken till must still be closable).
 */
export function onQuitRequest(input: QuitInput): QuitDecision {
  const open = input.till?.openSales ?? 0;
  const counters = input.till?.connectedCounters ?? 0;
  if (input.confirmed || (open === 0 && counters === 0)) return { kind: 'quit' };
  const update = input.purpose === 'update';
  if (open === 0) return { kind: 'ask', dialog: countersDialog(counters, update) };
  const sales = open === 1 ? 'A sale is' : `${open} sales are`;
  return {
    kind: 'ask',
    dialog: {
      type: 'warning',
      title: update ? 'Restart to update?' : 'Quit Transfer Till?',
      message: `${sales} still waiting for payment.`,
      detail: `If the till ${update ? 'restarts' : 'quits'} now, it stops listening for ${open === 1 ? 'that payment' : 'those payments'}. Money sent still reaches the account, and the till finds it when it starts again, but nobody sees "Paid" until then.`,
      buttons: ['Keep the till running', update ? 'Restart anyway' : 'Quit anyway'],
      defaultId: 0,
      cancelId: 0,
      noLink: true,
    },
  };
}

/** This till is a shop hub with counters on it: quitting stops them selling. */
function countersDialog(counters: number, update: boolean): QuitDialog {
  return {
    type: 'warning',
    title: update ? 'Restart to update?' : 'Quit Transfer Till?',
    message: `${counters === 1 ? 'A counter is' : `${counters} counters are`} selling through this hub.`,
    detail: `If the hub ${update ? 'restarts' : 'quits'} now, ${counters === 1 ? 'that counter' : 'those counters'} cannot start sales or see payments until it is back. They reconnect by themselves when it starts again.`,
    buttons: ['Keep the till running', update ? 'Restart anyway' : 'Quit anyway'],
    defaultId: 0,
    cancelId: 0,
    noLink: true,
  };
}

/** The answer to the dialog: true to go ahead. */
export function quitConfirmed(response: number): boolean {
  return response === QUIT_ANYWAY_BUTTON;
}
