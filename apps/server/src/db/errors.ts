/** The error and its causes, outermost first: Drizzle wraps the driver's error in its own. */
export function* errorChain(error: unknown): Generator<{ code?: unknown; message?: unknown }> {
  let current: unknown = error;
  for (let depth = 0; current && typeof current === 'object' && depth < 5; depth += 1) {
    yield current as { code?: unknown; message?: unknown };
    current = (current as { cause?: unknown }).cause;
  }
}

/** PostgreSQL's unique_violation (23505), wherever it sits in the chain. */
export function isUniqueViolation(error: unknown): boolean {
  for (const e of errorChain(error)) if (e.code === '23505') return true;
  return false;
}
