/**
 * Envelope codes. `1` is success; every other value is a failure whose human message travels in `msg`.
 * Failures are grouped so a client can branch on the kind without parsing text; the precise reason is
 * the message key, which the server translates into the request's language.
 */
export const ResponseCode = {
  ok: 1,
  notLoggedIn: 999,
  invalidInput: 1001,
  rejected: 1002,
  forbidden: 1003,
  notFound: 1004,
  conflict: 1009,
  /** The risk disclosure in force is not yet accepted: accept it (POST /api/user/risk_disclosure), then retry. */
  disclosureRequired: 1010,
  tooManyRequests: 1429,
  internal: 1500,
} as const;

export type ResponseCodeValue = (typeof ResponseCode)[keyof typeof ResponseCode];

export type ErrorKind = Exclude<keyof typeof ResponseCode, 'ok'>;

/**
 * A failure the user can act on. `key` names a message in the server's catalogue; `params` fill its
 * placeholders. Services throw these; one HTTP error handler turns them into the envelope.
 */
export class AppError extends Error {
  constructor(
    readonly kind: ErrorKind,
    readonly key: string,
    readonly params: Record<string, string | number> = {},
  ) {
    super(key);
    this.name = 'AppError';
  }

  get code(): ResponseCodeValue {
    return ResponseCode[this.kind];
  }
}

export const invalid = (key: string, params?: Record<string, string | number>) => new AppError('invalidInput', key, params);
export const rejected = (key: string, params?: Record<string, string | number>) => new AppError('rejected', key, params);
export const notFound = (key: string, params?: Record<string, string | number>) => new AppError('notFound', key, params);
export const forbidden = (key: string, params?: Record<string, string | number>) => new AppError('forbidden', key, params);
export const conflict = (key: string, params?: Record<string, string | number>) => new AppError('conflict', key, params);
export const disclosureRequired = () => new AppError('disclosureRequired', 'risk_disclosure_due');
export const notLoggedIn = () => new AppError('notLoggedIn', 'not_logged_in');
