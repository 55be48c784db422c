import { AppError } from './errors';

/**
 * Money inside the app is an integer number of kobo (1 Naira = 100 kobo). The provider speaks
 * Naira (possibly with decimals) for accounts and transactions and kobo for balances; we convert
 * at the provider boundary only, exactly, through the decimal text of the number so that float
 * artefacts never leak in (1234.56 Naira is 123456 kobo, never 123455.99999).
 */

export type Kobo = number;

export class MoneyError extends AppError<'INVALID_AMOUNT'> {
  constructor(message: string) {
    super('INVALID_AMOUNT', message);
    this.name = 'MoneyError';
  }
}

/** Largest kobo amount we accept: well inside Number.MAX_SAFE_INTEGER. */
export const MAX_KOBO = 1e15;

const DECIMAL = /^(-?)(\d+)(?:\.(\d+))?$/;

function decimalText(value: number | string): string {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new MoneyError(`Amount is not a finite number: ${value}`);
    // toString of a double gives its shortest round-tripping decimal (1234.56, not 1234.5599..).
    // Exponent forms appear only for tiny or huge values, handled by toFixed.
    const text = String(value);
    return /e/i.test(text) ? value.toFixed(20).replace(/\.?0+$/, '') : text;
  }
  return value.trim();
}

/**
 * Naira (number or decimal string, at most two decimals) to integer kobo, exactly.
 * Throws MoneyError on anything else: NaN, infinities, three decimals, text, out of range.
 */
export function nairaToKobo(value: number | string): Kobo {
  if (typeof value === 'number') {
    // The common case without text: k / 100 (a correctly rounded division) is the double nearest
    // the decimal k/100, so when it is `value` the shortest text of `value` is that decimal (two
    // decimals at most; below MAX_KOBO the doubles of two-decimal amounts are 0.01 apart, far
    // more than their spacing) and the text path below gives k too. Anything else takes it.
    const kobo = Math.round(value * 100);
    if (kobo / 100 === value && Math.abs(kobo) <= MAX_KOBO) return kobo + 0; // + 0: never -0
  }
  const text = decimalText(value);
  const match = DECIMAL.exec(text);
  if (!match) throw new MoneyError(`Amount is not a decimal number: ${JSON.stringify(value)}`);
  const [, sign, whole = '0', fraction = ''] = match;
  const trimmed = fraction.replace(/0+$/, '');
  if (trimmed.length > 2) {
    throw new MoneyError(`Amount has more than two decimal places: ${text}`);
  }
  const kobo = Number(whole) * 100 + Number(trimmed.padEnd(2, '0'));
  if (!Number.isSafeInteger(kobo) || kobo > MAX_KOBO) {
    throw new MoneyError(`Amount is out of range: ${text}`);
  }
  return sign === '-' && kobo !== 0 ? -kobo : kobo;
}

/** Integer kobo to Naira as a JSON number with at most two decimals (for the provider's API). */
export function koboToNaira(kobo: Kobo): number {
  assertKobo(kobo);
  // Division by 100 of an integer gives the double nearest to the decimal value, whose shortest
  // text is exactly the two-decimal amount, so the JSON the provider sees is e.g. 1234.56.
  return kobo / 100;
}

/** Integer kobo to a plain decimal string with two decimals: 123450 -> "1234.50". */
export function koboToDecimalString(kobo: Kobo): string {
  assertKobo(kobo);
  const sign = kobo < 0 ? '-' : '';
  const abs = Math.abs(kobo);
  return `${sign}${Math.trunc(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

const nairaFormat = new Intl.NumberFormat('en-NG', {
  style: 'currency',
  currency: 'NGN',
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});

/** For people: 123450 -> "₦1,234.50". */
export function formatNaira(kobo: Kobo): string {
  assertKobo(kobo);
  return nairaFormat.format(kobo / 100);
}

export function assertKobo(kobo: Kobo): void {
  if (!Number.isSafeInteger(kobo)) throw new MoneyError(`Not an integer kobo amount: ${kobo}`);
}
