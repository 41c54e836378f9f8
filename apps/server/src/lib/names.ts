import { badRequest } from './errors.ts';

/** A name as stored: trimmed, and never only spaces (the schema counts spaces as text). */
export function cleanName(name: string, field = 'name'): string {
  const value = name.trim();
  if (value === '') throw badRequest(`body.${field} must not be blank`);
  return value;
}
