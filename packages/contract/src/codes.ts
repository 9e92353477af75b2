/** Result codes of the API envelope (DESIGN.md section 4). */
export const Code = {
  Success: 8888,
  SessionEnded: 1001,
  TokenMissing: 50008,
  SessionReplaced: 50012,
  TokenExpired: 50014,
  Validation: 4000,
  Forbidden: 4003,
  NotFound: 4004,
  Conflict: 4009,
  TooMany: 4029,
  Internal: 5000,
} as const;

export type CodeValue = (typeof Code)[keyof typeof Code];

/** The HTTP status that travels with each non-success code. */
export const httpStatusOf: Record<CodeValue, number> = {
  [Code.Success]: 200,
  [Code.SessionEnded]: 401,
  [Code.TokenMissing]: 401,
  [Code.SessionReplaced]: 401,
  [Code.TokenExpired]: 401,
  [Code.Validation]: 400,
  [Code.Forbidden]: 403,
  [Code.NotFound]: 404,
  [Code.Conflict]: 409,
  [Code.TooMany]: 429,
  [Code.Internal]: 500,
};

/** Codes after which the console offers the re-login dialog (SPEC.md section 4 and 8). */
export const SESSION_ENDED_CODES: readonly number[] = [
  Code.SessionEnded,
  Code.TokenMissing,
  Code.SessionReplaced,
  Code.TokenExpired,
];
