/**
 * True when a database error is a unique-constraint violation (PostgreSQL 23505, SQLite
 * SQLITE_CONSTRAINT_UNIQUE / PRIMARYKEY). Services check uniqueness first and give a precise
 * message; this catches the race where two requests pass the check at the same time.
 */
export function isUniqueViolation(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const code = (error as { code?: unknown }).code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}
