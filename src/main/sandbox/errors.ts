/** Why a sandbox request was refused; the HTTP status travels with the code. */
export type SandboxErrorCode =
  | 'MISSING_SECRET_KEY'
  | 'UNKNOWN_SECRET_KEY'
  | 'UNAUTHORIZED'
  | 'VALIDATION'
  | 'INVALID_JSON'
  | 'PAYLOAD_TOO_LARGE'
  | 'REFERENCE_EXISTS'
  | 'NOT_FOUND'
  | 'ROUTE_NOT_FOUND'
  | 'METHOD_NOT_ALLOWED'
  | 'PENDING'
  | 'ACCOUNT_EXPIRED'
  | 'ACCOUNT_CANCELLED'
  | 'CONFLICT'
  | 'INJECTED_FAULT'
  | 'MISDIRECTED'
  | 'CROSS_ORIGIN';

const HTTP_STATUS: Readonly<Record<SandboxErrorCode, number>> = {
  MISSING_SECRET_KEY: 400,
  UNKNOWN_SECRET_KEY: 404,
  UNAUTHORIZED: 401,
  VALIDATION: 400,
  INVALID_JSON: 400,
  PAYLOAD_TOO_LARGE: 413,
  REFERENCE_EXISTS: 409,
  NOT_FOUND: 404,
  ROUTE_NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  PENDING: 409,
  ACCOUNT_EXPIRED: 409,
  ACCOUNT_CANCELLED: 409,
  CONFLICT: 409,
  INJECTED_FAULT: 500,
  MISDIRECTED: 421,
  CROSS_ORIGIN: 403,
};

export class SandboxError extends Error {
  readonly httpStatus: number;
  constructor(
    readonly code: SandboxErrorCode,
    message: string,
    httpStatus?: number,
  ) {
    super(message);
    this.name = 'SandboxError';
    this.httpStatus = httpStatus ?? HTTP_STATUS[code];
  }
}

/** A bad request field: the message always starts with the field's name. */
export function invalidField(field: string, problem: string): SandboxError {
  return new SandboxError('VALIDATION', `${field}: ${problem}`);
}
