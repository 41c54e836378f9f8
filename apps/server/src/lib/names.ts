import { BLANK_PROBLEM, isBlank, withoutBidiControls } from '@signpost/contract';
import { fieldRefused } from './errors.ts';
import { labelFromName, textProblemInWords } from './field-words.ts';

/**
 * A name as stored: without bidirectional controls (decision 0081), trimmed, and never only
 * spaces or invisible characters (the request check does both already for every name of a
 * schema; this keeps the rules for callers without one).
 */
export function cleanName(name: string, field = 'name'): string {
  const value = withoutBidiControls(name).trim();
  if (isBlank(value)) {
    throw fieldRefused(field, textProblemInWords(labelFromName(field), BLANK_PROBLEM));
  }
  return value;
}
