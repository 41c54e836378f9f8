// The tables in this folder are copied by hand from the SQL migrations, which are the
// truth (decision 0001). This file holds the copy to what the migrations make: every table
// of the `public` schema, its columns, their types, nullability and whether the database
// computes them. Each difference is named, with what to write, so a migration that changes
// a table fails here until the mirror follows it.
import { is } from 'drizzle-orm';
import {
  bigserial,
  char,
  doublePrecision,
  getTableConfig,
  integer,
  numeric,
  PgTable,
  pgTable,
  real,
  serial,
  smallserial,
  text,
  time,
  timestamp,
  varchar,
} from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../../test/app.ts';
import type { DatabaseHandle } from '../client.ts';
import * as schema from './index.ts';

/**
 * Tables of `public` the mirror leaves out, each with its reason. Every other table is
 * mirrored, so that a typed query can reach it.
 */
const NOT_MIRRORED: Record<string, string> = {
  // The migration runner creates these itself, before any migration runs (migrate.ts holds
  // their definition), and reads them on its own connection.
  schema_migrations: 'the numbered migrations applied, kept by migrate.ts',
  schema_functions: 'the SQL function files applied (decision 0006), kept by migrate.ts',
};

interface Column {
  type: string;
  notNull: boolean;
  /** A `GENERATED ALWAYS AS (…) STORED` column: the database writes it, an insert may not. */
  generated: boolean;
}

/** Columns by name, of tables by name. */
type Tables = Map<string, Map<string, Column>>;

const SERIALS: Record<string, string> = {
  smallserial: 'smallint',
  serial: 'integer',
  bigserial: 'bigint',
};

/**
 * Drizzle's type of a column as PostgreSQL's `format_type` writes it. Drizzle writes what a
 * CREATE TABLE may say (`varchar(20)`, `timestamp`, `text[3]`); the catalog answers with the
 * canonical names (`character varying(20)`, `timestamp without time zone`, `text[]`). Types
 * Drizzle already spells so (text, uuid, integer, bigint, boolean, jsonb, enums, custom
 * types such as bytea) pass unchanged.
 */
function catalogType(drizzleType: string): string {
  const [, base = drizzleType, array = ''] = /^(.*?)((?:\[\d*\])*)$/.exec(drizzleType) ?? [];
  const time = /^(timestamp|time) ?(\(\d+\))?( with time zone)?$/.exec(base);
  const canonical = time
    ? `${time[1]}${time[2] ?? ''}${time[3] ?? ' without time zone'}`
    : (SERIALS[base] ??
      base
        .replace(/^varchar\b/, 'character varying')
        .replace(/^char$/, 'character(1)')
        .replace(/^char\(/, 'character(')
        .replace(/^numeric\((\d+), (\d+)\)$/, 'numeric($1,$2)'));
  return array ? `${canonical}[]` : canonical;
}

/** Every table the mirror declares, named as the catalog names it. */
function mirrorTables(): Tables {
  const tables: Tables = new Map();
  for (const value of Object.values(schema)) {
    if (!is(value, PgTable)) continue;
    const config = getTableConfig(value);
    const name = config.schema ? `${config.schema}.${config.name}` : config.name;
    const columns = new Map<string, Column>();
    for (const column of config.columns) {
      columns.set(column.name, {
        type: catalogType(column.getSQLType()),
        notNull: column.notNull,
        generated: column.generated !== undefined,
      });
    }
    tables.set(name, columns);
  }
  return tables;
}

/** Every ordinary or partitioned table of `public`, as the migrations left it. */
async function catalogTables(database: DatabaseHandle): Promise<Tables> {
  const rows = await database.query<Column & { table: string; column: string }>(
    `SELECT c.relname AS "table", a.attname AS "column",
            format_type(a.atttypid, a.atttypmod) AS "type",
            a.attnotnull AS "notNull", a.attgenerated <> '' AS "generated"
     FROM pg_class c
     JOIN pg_namespace n ON n.oid = c.relnamespace
     JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
     WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p')
     ORDER BY c.relname, a.attnum`,
  );
  const tables: Tables = new Map();
  for (const { table, column, ...shape } of rows) {
    const columns = tables.get(table) ?? new Map<string, Column>();
    columns.set(column, shape);
    tables.set(table, columns);
  }
  return tables;
}

/** A column as a developer would write it down: `text not null, generated`. */
function describeColumn({ type, notNull, generated }: Column): string {
  return `${type}${notNull ? ' not null' : ' nullable'}${generated ? ', generated' : ''}`;
}

function describeColumns(columns: Map<string, Column>): string {
  return [...columns].map(([name, column]) => `${name} ${describeColumn(column)}`).join('; ');
}

/** The tables on one side only, and the exceptions that no longer hold. */
function tableDifferences(mirror: Tables, database: Tables): string[] {
  const differences: string[] = [];
  for (const [table, columns] of database) {
    if (mirror.has(table) || Object.hasOwn(NOT_MIRRORED, table)) continue;
    differences.push(
      `${table}: in the database, missing in the mirror (${describeColumns(columns)})`,
    );
  }
  for (const table of mirror.keys()) {
    if (!database.has(table)) differences.push(`${table}: in the mirror, missing in the database`);
  }
  for (const [table, reason] of Object.entries(NOT_MIRRORED)) {
    if (mirror.has(table)) {
      differences.push(`${table}: mirrored, but listed in NOT_MIRRORED (${reason})`);
    }
    if (!database.has(table)) {
      differences.push(`${table}: listed in NOT_MIRRORED, but missing in the database`);
    }
  }
  return differences;
}

/** How the columns of one table differ between the database and the mirror. */
function columnDifferences(
  table: string,
  inDatabase: Map<string, Column>,
  inMirror: Map<string, Column>,
) {
  const differences: string[] = [];
  for (const [name, column] of inDatabase) {
    const mirrored = inMirror.get(name);
    const where = `${table}.${name}`;
    if (!mirrored) {
      differences.push(
        `${where}: in the database (${describeColumn(column)}), missing in the mirror`,
      );
      continue;
    }
    if (mirrored.type !== column.type) {
      differences.push(
        `${where}: type ${column.type} in the database, ${mirrored.type} in the mirror`,
      );
    }
    if (mirrored.notNull !== column.notNull) {
      const say = (notNull: boolean) => (notNull ? 'not null' : 'nullable');
      differences.push(
        `${where}: ${say(column.notNull)} in the database, ${say(mirrored.notNull)} in the mirror`,
      );
    }
    if (mirrored.generated !== column.generated) {
      const say = (generated: boolean) => (generated ? 'generated' : 'a plain column');
      differences.push(
        `${where}: ${say(column.generated)} in the database, ${say(mirrored.generated)} in the mirror`,
      );
    }
  }
  for (const [name, column] of inMirror) {
    if (!inDatabase.has(name)) {
      differences.push(
        `${table}.${name}: in the mirror (${describeColumn(column)}), missing in the database`,
      );
    }
  }
  return differences;
}

const database = await createTestDatabase();
const inDatabase = await catalogTables(database);
const inMirror = mirrorTables();

/** Column types Drizzle spells otherwise than the catalog, to hold `catalogType` to. */
const spellings = pgTable('spellings', {
  varcharLength: varchar('varchar_length', { length: 20 }),
  varcharAny: varchar('varchar_any'),
  charOne: char('char_one'),
  charLength: char('char_length', { length: 3 }),
  numericScale: numeric('numeric_scale', { precision: 10, scale: 2 }),
  numericAny: numeric('numeric_any'),
  timestampPlain: timestamp('timestamp_plain'),
  timestampString: timestamp('timestamp_string', { precision: 3, mode: 'string' }),
  timestampZone: timestamp('timestamp_zone', { withTimezone: true, precision: 6 }),
  timePlain: time('time_plain'),
  timeZone: time('time_zone', { withTimezone: true }),
  serialColumn: serial('serial_column'),
  bigserialColumn: bigserial('bigserial_column', { mode: 'number' }),
  smallserialColumn: smallserial('smallserial_column'),
  doubleColumn: doublePrecision('double_column'),
  realColumn: real('real_column'),
  textArray: text('text_array').array(),
  integerMatrix: integer('integer_matrix').array().array(),
});

describe('the typed table mirror (db/schema)', () => {
  it("reads Drizzle's spelling of each column type as the database writes it", async () => {
    const { columns } = getTableConfig(spellings);
    const created = await database.withConnection(async (conn) => {
      const definitions = columns.map((column) => `${column.name} ${column.getSQLType()}`);
      await conn.exec(`CREATE TEMP TABLE spellings (${definitions.join(', ')})`);
      return conn.query<{ name: string; type: string }>(
        `SELECT attname AS name, format_type(atttypid, atttypmod) AS type
         FROM pg_attribute
         WHERE attrelid = 'pg_temp.spellings'::regclass AND attnum > 0 AND NOT attisdropped
         ORDER BY attnum`,
      );
    });
    const read = columns.map((column) => ({
      name: column.name,
      type: catalogType(column.getSQLType()),
    }));
    expect(read).toEqual(created);
  });

  it('declares every table of the public schema the migrations make, and no other', () => {
    expect(inDatabase.size).toBeGreaterThan(0);
    expect(tableDifferences(inMirror, inDatabase)).toEqual([]);
  });

  it('gives each table the columns of the database, of the same type and nullability', () => {
    const differences = [...inMirror].flatMap(([table, columns]) => {
      const columnsInDatabase = inDatabase.get(table);
      return columnsInDatabase ? columnDifferences(table, columnsInDatabase, columns) : [];
    });
    expect(differences).toEqual([]);
  });
});
