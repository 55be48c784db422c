/** Why a sign-in, an unlock or a PIN change was refused: a code the UI maps to words. */
export type AuthErrorCode =
  'WRONG_PIN' | 'LOCKED_OUT' | 'PIN_REQUIRED' | 'PIN_NOT_SET' | 'UNKNOWN_CASHIER';

export class AuthError extends Error {
  constructor(
    readonly code: AuthErrorCode,
    message: string,
    readonly field?: string,
  ) {
    super(message);
    this.name = 'AuthError';
  }
}
