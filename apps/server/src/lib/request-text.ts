import {
  AS_TYPED,
  BLANK_PROBLEM,
  isBlank,
  MULTILINE,
  textProblem,
  VISIBLE,
  withoutBidiControls,
} from '@signpost/contract';
import { fieldRefused, badRequest } from './errors.ts';
import {
  capital,
  labelFromName,
  textProblemInWords,
  type FieldProblem,
  type RequestPart,
} from './field-words.ts';
import { branches, propertySchemas, type Schema } from './schema-walk.ts';

function itemSchemas(schemas: Schema[], index: number): Schema[] {
  const result: Schema[] = [];
  for (const schema of schemas) {
    const prefix = schema.prefixItems;
    const items = schema.items;
    if (Array.isArray(prefix) && index < prefix.length) result.push(...branches(prefix[index]));
    else if (Array.isArray(items)) result.push(...branches(items[index]));
    else result.push(...branches(items));
  }
  return result;
}

/** The label of a place: its schema's title, else its property's name in words. */
function labelOf(schemas: Schema[], key: string): string {
  const titled = schemas.find((s) => typeof s.title === 'string' && s.title.trim() !== '');
  return titled ? (titled.title as string) : labelFromName(key);
}

/** Where the walk is: what to call the place, and the top property it lies under. */
interface Place {
  label: string;
  field: string | null;
}

const WHOLE: Record<RequestPart, string> = {
  body: 'the request',
  querystring: 'the query of the address',
  params: 'the address',
  headers: 'the request’s headers',
};

/**
 * The first string of a request part that holds a character no text may hold (see
 * `textProblem` in the contract), said in words with the field's label (decision 0078):
 * "The name cannot contain the control character U+0000." Property names are checked too. A
 * string is a multi-line text only when a schema of its place says so; a place without a
 * schema is one line.
 */
export function findTextProblem(
  data: unknown,
  schema: unknown,
  part: RequestPart,
): FieldProblem | null {
  return walk(data, branches(schema), { label: WHOLE[part], field: null }, 0);
}

function walk(data: unknown, schemas: Schema[], place: Place, depth: number): FieldProblem | null {
  if (typeof data === 'string') {
    const allowLines = schemas.some((s) => s[MULTILINE] === true);
    const problem = textProblem(data, allowLines);
    if (problem) return { field: place.field, message: textProblemInWords(place.label, problem) };
    // A name must show something: not only spaces, zero-width or bidirectional characters.
    // An empty text is left to the schema (its minLength).
    if (data !== '' && schemas.some((s) => s[VISIBLE] === true) && isBlank(data)) {
      return { field: place.field, message: textProblemInWords(place.label, BLANK_PROBLEM) };
    }
    return null;
  }
  // The body limit keeps data small; the depth bound only guards the stack.
  if (depth > 64 || typeof data !== 'object' || data === null) return null;
  if (Array.isArray(data)) {
    for (let i = 0; i < data.length; i++) {
      const entry = { label: `entry ${i + 1} of ${place.label}`, field: place.field };
      const problem = walk(data[i], itemSchemas(schemas, i), entry, depth + 1);
      if (problem) return problem;
    }
    return null;
  }
  for (const [key, value] of Object.entries(data)) {
    const keyProblem = textProblem(key);
    if (keyProblem) {
      return {
        field: place.field,
        message: `${capital(place.label)} has a property whose name ${keyProblem}.`,
      };
    }
    const inner = propertySchemas(schemas, key);
    const problem = walk(
      value,
      inner,
      { label: labelOf(inner, key), field: place.field ?? key },
      depth + 1,
    );
    if (problem) return problem;
  }
  return null;
}

const PARTS = [
  ['params', 'params'],
  ['query', 'querystring'],
  ['body', 'body'],
] as const;

/**
 * The data with the bidirectional embeddings, overrides and isolates taken out of every
 * string but those a schema of its place marks as typed (a password); arrays and objects are
 * changed in place, the data is returned (decision 0081).
 */
export function stripBidiControls(data: unknown, schema: unknown): unknown {
  return strip(data, branches(schema), 0);
}

function strip(data: unknown, schemas: Schema[], depth: number): unknown {
  if (typeof data === 'string') {
    return schemas.some((s) => s[AS_TYPED] === true) ? data : withoutBidiControls(data);
  }
  if (depth > 64 || typeof data !== 'object' || data === null) return data;
  if (Array.isArray(data)) {
    for (let i = 0; i < data.length; i++) {
      const next = strip(data[i], itemSchemas(schemas, i), depth + 1);
      if (next !== data[i]) data[i] = next;
    }
    return data;
  }
  const record = data as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    // Never written through: a `__proto__` key is refused by the schema and the parsers.
    if (key === '__proto__') continue;
    const next = strip(record[key], propertySchemas(schemas, key), depth + 1);
    if (next !== record[key]) record[key] = next;
  }
  return data;
}

interface RequestLike {
  params: unknown;
  query: unknown;
  body: unknown;
  routeOptions: { schema?: Record<string, unknown> | undefined };
}

/**
 * Checks every string of the path parameters, the query string and the body, before the
 * schema and before any route, on every route (with a schema for the part or not): 400
 * naming the field in words, nothing read or stored. Then takes the bidirectional controls
 * out of the query string and the body (decision 0081); path parameters are ids and names of
 * things, looked up as they are.
 */
export async function checkRequestText(request: RequestLike): Promise<void> {
  const schema = request.routeOptions.schema ?? {};
  for (const [property, part] of PARTS) {
    const problem = findTextProblem(request[property], schema[part], part);
    if (problem?.field) throw fieldRefused(problem.field, problem.message);
    if (problem) throw badRequest(problem.message);
  }
  request.query = stripBidiControls(request.query, schema.querystring);
  request.body = stripBidiControls(request.body, schema.body);
}
