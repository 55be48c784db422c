import { AppError } from '#shared/errors';

/** An environment not set up yet: names the Settings field to fill in. */
export class NotConfiguredError extends AppError<'NOT_CONFIGURED'> {
  constructor(message: string, field?: string) {
    super('NOT_CONFIGURED', message, field === undefined ? {} : { field });
    this.name = 'NotConfiguredError';
  }
}
