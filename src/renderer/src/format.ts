import { koboToDecimalString } from '#shared/money';
import type { SaleState, SaleView } from '#shared/sales';

export const LAGOS = 'Africa/Lagos';

/** Digits grouped for reading aloud: a 10-digit NUBAN as "012 345 6789". */
export function groupAccountNumber(accountNumber: string): string {
  const digits = accountNumber.replace(/\s+/g, '');
  if (digits.length === 10) return `${digits.slice(0, 3)} ${digits.slice(3, 6)} ${digits.slice(6)}`;
  const groups: string[] = [];
  for (let i = 0; i < digits.length; i += 4) groups.push(digits.slice(i, i + 4));
  return groups.join(' ');
}

/** Whole seconds left as "mm:ss" (minutes may pass 59: "75:00"). */
export function formatCountdown(msLeft: number): string {
  const total = Math.max(0, Math.ceil(msLeft / 1000));
  const minutes = Math.floor(total / 60);
  const seconds = total % 60;
  return `${String(minutes).padStart(2, '0')}:${String(seconds).padStart(2, '0')}`;
}

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(timeZone: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${timeZone}|${JSON.stringify(options)}`;
  let found = formatters.get(key);
  if (!found) {
    found = new Intl.DateTimeFormat('en-NG', { ...options, timeZone });
    formatters.set(key, found);
  }
  return found;
}

export function formatTime(ms: number, timeZone = LAGOS): string {
  return formatter(timeZone, { hour: '2-digit', minute: '2-digit', hour12: false }).format(ms);
}

/** One definition with the report PDF made in main. */
export { formatDateTime } from '#shared/report-words';

/** The calendar day of `ms` in the zone as 'YYYY-MM-DD'. */
export function dayOf(ms: number, timeZone = LAGOS): string {
  const parts = formatter(timeZone, { year: 'numeric', month: '2-digit', day: '2-digit' })
    .formatToParts(ms)
    .reduce<Record<string, string>>((acc, part) => ({ ...acc, [part.type]: part.value }), {});
  return `${parts.year}-${parts.month}-${parts.day}`;
}

export const SALE_STATE_WORDS: Readonly<Record<SaleState, string>> = {
  creating: 'Creating account…',
  failed_to_create: 'Could not create account',
  awaiting_payment: 'Waiting for transfer',
  confirming: 'Bank processing…',
  paid: 'Paid',
  wrong_amount: 'Wrong amount',
  expired: 'Expired',
  cancelled: 'Cancelled',
  paid_late: 'Paid late',
  unconfirmed: 'Unconfirmed',
};

/** A sale's state in a list: a late payment says what it came after (the till knows which). */
export function saleStateWords(sale: Pick<SaleView, 'state' | 'paidAfter'>): string {
  if (sale.state === 'paid_late' && sale.paidAfter === 'cancelled') return 'Paid after cancel';
  if (sale.state === 'paid_late' && sale.paidAfter === 'expired') return 'Paid after expiry';
  return SALE_STATE_WORDS[sale.state];
}

/** The same text a transfer app shows, for reading or copying: not an NQR payment code. */
export function accountDetailsText(details: {
  readonly bank: string | null;
  readonly accountNumber: string;
  readonly accountName: string | null;
  readonly amountKobo: number;
}): string {
  return [
    `Bank: ${details.bank ?? ''}`,
    `Account: ${details.accountNumber}`,
    `Name: ${details.accountName ?? ''}`,
    `Amount: NGN ${koboToDecimalString(details.amountKobo)}`,
  ].join('\n');
}
