import { AppError } from './errors';

/**
 * An amount of money in words, as a Nigerian shop's soundbox says it: "one thousand five hundred
 * naira received", "two million, three hundred and five thousand naira received", "one thousand
 * five hundred naira, fifty kobo received". Pure: the renderer speaks it, tests read it.
 *
 * The wording rules (British usage, as Nigerian English speaks numbers):
 * - "and" joins tens and units to what comes before them: after "hundred" inside a group ("three
 *   hundred and five"), and after the last scale word when the final group is below a hundred
 *   ("one thousand and five", "two million and fifty"). Nowhere else ("one million, five
 *   thousand").
 * - A comma (a pause in speech) follows "billion" and "million" when more follows, but not
 *   "thousand" ("one thousand five hundred") and not before that final "and".
 * - Tens and units are hyphenated ("twenty-one"). "naira" and "kobo" do not change in the plural.
 * - Kobo follow the naira after a comma; 0 kobo are not said; an amount below ₦1 is said in kobo
 *   alone ("fifty kobo"). "received" ends the announcement, after the kobo.
 */

/** The largest amount these words can say: ₦999,999,999,999.99, in kobo. */
export const MAX_SAYABLE_KOBO = 99_999_999_999_999;

export class AmountWordsError extends AppError<'AMOUNT_NOT_SAYABLE'> {
  constructor(amountKobo: number) {
    super(
      'AMOUNT_NOT_SAYABLE',
      `${amountKobo} kobo cannot be said: whole kobo from 0 to ${MAX_SAYABLE_KOBO} only`,
    );
    this.name = 'AmountWordsError';
  }
}

const UNITS = [
  'zero',
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'eleven',
  'twelve',
  'thirteen',
  'fourteen',
  'fifteen',
  'sixteen',
  'seventeen',
  'eighteen',
  'nineteen',
] as const;

const TENS = [
  '',
  '',
  'twenty',
  'thirty',
  'forty',
  'fifty',
  'sixty',
  'seventy',
  'eighty',
  'ninety',
] as const;

/** Scales from the largest down; the last group (units) has no word. */
const SCALES = [
  { word: 'billion', size: 1_000_000_000, commaAfter: true },
  { word: 'million', size: 1_000_000, commaAfter: true },
  { word: 'thousand', size: 1_000, commaAfter: false },
] as const;

/** 1..99. */
function belowHundred(n: number): string {
  if (n < 20) return UNITS[n] ?? '';
  const tens = TENS[Math.floor(n / 10)] ?? '';
  const units = n % 10;
  return units === 0 ? tens : `${tens}-${UNITS[units] ?? ''}`;
}

/** 1..999, with "and" after "hundred". */
function belowThousand(n: number): string {
  const hundreds = Math.floor(n / 100);
  const rest = n % 100;
  if (hundreds === 0) return belowHundred(rest);
  const head = `${UNITS[hundreds] ?? ''} hundred`;
  return rest === 0 ? head : `${head} and ${belowHundred(rest)}`;
}

/** A whole number from 0 to 999,999,999,999 in words, by the rules above. */
export function wholeNumberInWords(n: number): string {
  if (!Number.isSafeInteger(n) || n < 0 || n > 999_999_999_999) {
    throw new AmountWordsError(n);
  }
  if (n === 0) return UNITS[0];
  let text = '';
  /** What joins the next group to the text so far: ', ' after billion and million, else ' '. */
  let joiner = '';
  let rest = n;
  for (const scale of SCALES) {
    const group = Math.floor(rest / scale.size);
    rest %= scale.size;
    if (group === 0) continue;
    text += `${joiner}${belowThousand(group)} ${scale.word}`;
    joiner = scale.commaAfter ? ', ' : ' ';
  }
  if (rest === 0) return text;
  if (text === '') return belowThousand(rest);
  return rest < 100
    ? `${text} and ${belowHundred(rest)}`
    : `${text}${joiner}${belowThousand(rest)}`;
}

/** "one thousand five hundred naira, fifty kobo"; "fifty kobo" below ₦1; "zero naira" for 0. */
export function nairaInWords(amountKobo: number): string {
  if (!Number.isSafeInteger(amountKobo) || amountKobo < 0 || amountKobo > MAX_SAYABLE_KOBO) {
    throw new AmountWordsError(amountKobo);
  }
  const naira = Math.floor(amountKobo / 100);
  const kobo = amountKobo % 100;
  if (kobo === 0) return `${wholeNumberInWords(naira)} naira`;
  const koboWords = `${belowHundred(kobo)} kobo`;
  return naira === 0 ? koboWords : `${wholeNumberInWords(naira)} naira, ${koboWords}`;
}

/** What the till says when a sale is paid: "one thousand five hundred naira received". */
export function paidAnnouncement(amountKobo: number): string {
  return `${nairaInWords(amountKobo)} received`;
}
