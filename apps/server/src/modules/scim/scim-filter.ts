// A SCIM filter (RFC 7644 §3.4.2.2) as a condition of SQL. The text is parsed by a
// maintained parser (scim2-parse-filter, decision 0084); this file only says what each
// attribute is in the database, so that `userName eq "…"` is an index look-up, not a scan of
// every person in memory.
import { sql, type SQL } from 'drizzle-orm';
import { parse, type Filter } from 'scim2-parse-filter';
import { invalidFilter, SCIM_LIMITS, URN } from './scim-protocol.ts';

/** How an attribute compares: text with or without case, a boolean, a time. */
export type AttributeKind = 'text' | 'exact' | 'boolean' | 'time';

export interface FilterAttribute {
  kind: AttributeKind;
  /** The attribute's value in SQL (lowered already for `text`). */
  value: SQL;
  /** For attributes of several values: the condition for one value, given the compared one. */
  any?: (condition: (value: SQL) => SQL) => SQL;
}

export type FilterAttributes = Record<string, FilterAttribute>;

const OPERATORS = ['eq', 'ne', 'co', 'sw', 'ew', 'gt', 'lt', 'ge', 'le', 'pr'] as const;

/** `%`, `_` and `\` taken literally in a LIKE pattern. */
const likeEscaped = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * An attribute path as the table names it: the core schema's URN prefix and case are
 * dropped (`urn:…:User:userName`, `USERNAME` and `userName` are one attribute).
 */
function attributeKey(path: string): string {
  let key = path;
  for (const urn of [URN.user, URN.group]) {
    if (key.toLowerCase().startsWith(`${urn.toLowerCase()}:`)) key = key.slice(urn.length + 1);
  }
  return key.toLowerCase();
}

function compare(
  attribute: FilterAttribute,
  path: string,
  op: (typeof OPERATORS)[number],
  raw: unknown,
): SQL {
  const { kind, value } = attribute;
  if (op === 'pr') return sql`(${value} IS NOT NULL)`;
  if (kind === 'boolean') {
    if (typeof raw !== 'boolean' || (op !== 'eq' && op !== 'ne')) {
      throw invalidFilter(`"${path}" is true or false, compared with eq or ne.`);
    }
    return op === 'eq' ? sql`(${value} = ${raw})` : sql`(${value} <> ${raw})`;
  }
  if (kind === 'time') {
    const time = typeof raw === 'string' ? new Date(raw) : null;
    if (!time || Number.isNaN(time.getTime())) {
      throw invalidFilter(
        `"${path}" is compared with a date and time such as "2026-01-31T12:00:00Z".`,
      );
    }
    const at = sql`${time.toISOString()}::timestamptz`;
    const ops = { eq: sql`=`, ne: sql`<>`, gt: sql`>`, lt: sql`<`, ge: sql`>=`, le: sql`<=` };
    if (!(op in ops))
      throw invalidFilter(`"${path}" is a time: compare it with eq, ne, gt, ge, lt or le.`);
    return sql`(${value} ${ops[op as keyof typeof ops]} ${at})`;
  }
  if (typeof raw !== 'string') throw invalidFilter(`"${path}" is compared with a string.`);
  if (raw.length > SCIM_LIMITS.filterLength) throw invalidFilter('The filter is too long.');
  const text = kind === 'text' ? raw.toLowerCase() : raw;
  switch (op) {
    case 'eq':
      return sql`(${value} = ${text})`;
    case 'ne':
      return sql`(${value} IS DISTINCT FROM ${text})`;
    case 'co':
      return sql`(${value} LIKE ${`%${likeEscaped(text)}%`})`;
    case 'sw':
      return sql`(${value} LIKE ${`${likeEscaped(text)}%`})`;
    case 'ew':
      return sql`(${value} LIKE ${`%${likeEscaped(text)}`})`;
    default:
      return sql`(${value} COLLATE "C" ${{ gt: sql`>`, lt: sql`<`, ge: sql`>=`, le: sql`<=` }[op]} ${text})`;
  }
}

function toSql(filter: Filter, attributes: FilterAttributes, prefix = ''): SQL {
  switch (filter.op) {
    case 'and':
    case 'or': {
      const parts = (filter as { filters: Filter[] }).filters.map((f) =>
        toSql(f, attributes, prefix),
      );
      return sql`(${sql.join(parts, filter.op === 'and' ? sql` AND ` : sql` OR `)})`;
    }
    case 'not':
      return sql`(NOT COALESCE(${toSql((filter as { filter: Filter }).filter, attributes, prefix)}, false))`;
    case '[]': {
      // `emails[type eq "work"]`: the condition inside applies to the attribute's sub-attributes.
      const { attrPath, valFilter } = filter as { attrPath: string; valFilter: Filter };
      return toSql(valFilter, attributes, `${prefix}${attrPath}.`);
    }
    default: {
      const { attrPath, compValue } = filter as { attrPath: string; compValue?: unknown };
      const op = filter.op as (typeof OPERATORS)[number];
      if (!OPERATORS.includes(op)) throw invalidFilter(`"${filter.op}" is not a filter operator.`);
      const path = `${prefix}${attrPath}`;
      const attribute = attributes[attributeKey(path)];
      if (!attribute) {
        throw invalidFilter(
          `"${path}" cannot be filtered on here; filter on ${Object.keys(attributes).join(', ')}.`,
        );
      }
      if (attribute.any) {
        return attribute.any((value) => compare({ ...attribute, value }, path, op, compValue));
      }
      return compare(attribute, path, op, compValue);
    }
  }
}

/** The SQL condition of a filter's text; `invalidFilter` when it does not parse or names an attribute this resource cannot filter on. */
export function filterCondition(text: string, attributes: FilterAttributes): SQL {
  if (text.length > SCIM_LIMITS.filterLength) throw invalidFilter('The filter is too long.');
  let filter: Filter;
  try {
    filter = parse(text);
  } catch (error) {
    throw invalidFilter(
      `The filter does not parse: ${error instanceof Error ? error.message : 'invalid syntax'}.`,
    );
  }
  return toSql(filter, attributes);
}
