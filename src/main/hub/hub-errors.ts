import { AppError } from '#shared/errors';

/** Why the owner's hub action (or a counter's request) was refused: a code the UI maps to words. */
export type HubErrorCode =
  /** This shell has no LAN listener (the desktop app before counter support, a test core). */
  | 'HUB_UNAVAILABLE'
  /** The LAN listener is off or not running: no counter could open a link now. */
  | 'HUB_LAN_OFF'
  | 'COUNTER_NOT_FOUND'
  /** The counter was revoked: it stays listed for the record but cannot be changed. */
  | 'COUNTER_REVOKED'
  | 'COUNTER_NAME_INVALID'
  | 'TILL_ID_INVALID'
  /** Another till of this shop (the hub or a live counter) has the same reference prefix. */
  | 'TILL_ID_TAKEN';

export class HubError extends AppError<HubErrorCode> {
  constructor(code: HubErrorCode, message: string, field?: string) {
    super(code, message, field === undefined ? {} : { field });
    this.name = 'HubError';
  }
}
