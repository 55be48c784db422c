/** An environment not set up yet: names the Settings field to fill in. */
export class NotConfiguredError extends Error {
  readonly code = 'NOT_CONFIGURED';
  constructor(
    message: string,
    readonly field?: string,
  ) {
    super(message);
    this.name = 'NotConfiguredError';
  }
}
