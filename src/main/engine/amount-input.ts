import { MoneyError, nairaToKobo } from '#shared/money';
import { AppError } from '#shared/errors';

export class AmountInputError extends AppError<'INVALID_AMOUNT'> {
  declare readonly field: string;
  constructor(message: string, field: string) {
    super('INVALID_AMOUNT', message, { field });
    this.name = 'AmountInputError';
  }
}

/**
 * Naira as a person types it — "1500", "1,500.50", "₦1,500" — to integer kobo, exactly. Commas
 * are accepted only as thousands separators, so "1,50" is refused rather than guessed at.
 */
export function parseNairaInput(text: string, field = 'amount'): number {
  const trimmed = text.trim().replace(/^(₦|NGN)\s*/i, '');
  if (!/^(\d+|\d{1,3}(,\d{3})+)(\.\d+)?$/.test(trimmed)) {
    throw new AmountInputError('Enter the amount in Naira, like 1500 or 1,500.50.', field);
  }
  try {
    return nairaToKobo(trimmed.replace(/,/g, ''));
  } catch (error) {
    if (error instanceof MoneyError) {
      throw new AmountInputError('Naira amounts have at most two decimal places (kobo).', field);
    }
    throw error;
  }
}
