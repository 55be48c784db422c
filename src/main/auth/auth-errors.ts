import { AppError, type AreaErrorCode } from '#shared/errors';

/** Why a sign-in, an unlock or a PIN change was refused: a code the UI maps to words. */
export type AuthErrorCode = Exclude<AreaErrorCode<'auth'>, 'PIN_HASH_UNREADABLE'>;

export class AuthError extends AppError<AuthErrorCode> {
  constructor(code: AuthErrorCode, message: string, field?: string) {
    super(code, message, field === undefined ? {} : { field });
    this.name = 'AuthError';
  }
}
