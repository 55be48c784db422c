import type { BridgeEvent } from '#shared/bridge/contract';
import { formatNaira } from '#shared/money';

export interface DesktopNotification {
  readonly title: string;
  readonly body: string;
  /** Stays on screen until dismissed (a late payment needs a person). */
  readonly urgent: boolean;
}

/** Which core events deserve a desktop notification, and its words. */
export function notificationFor(event: BridgeEvent): DesktopNotification | null {
  if (event.type === 'sale-changed' && event.payload.state === 'paid') {
    return {
      title: `Paid: ${formatNaira(event.payload.amountKobo)}`,
      body: `Sale #${event.payload.id} is paid and confirmed with the bank.`,
      urgent: false,
    };
  }
  if (event.type === 'alert' && event.payload.kind === 'paid_late') {
    return { title: 'Late payment', body: event.payload.message, urgent: true };
  }
  if (event.type === 'alert' && event.payload.level === 'error') {
    return { title: 'Transfer Till needs attention', body: event.payload.message, urgent: true };
  }
  return null;
}
