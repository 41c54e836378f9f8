import { BLANK_PROBLEM, isBlank } from '@signpost/contract';
import { fieldRefused } from './errors.ts';
import { labelFromName, textProblemInWords } from './field-words.ts';

/**
 * A name as stored: trimmed, and never only spaces or invisible characters (the request
 * check refuses those already for every name of a schema; this keeps the rule for callers
 * without one).
 */
export function cleanName(name: string, field = 'name'): string {
  const value = name.trim();
  if (isBlank(value)) {
    throw fieldRefused(field, textProblemInWords(labelFromName(field), BLANK_PROBLEM));
  }
  return value;
}
