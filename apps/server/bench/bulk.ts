import type { RawConnection } from '../src/db/client.ts';

/** Column name and PostgreSQL type, e.g. ['position', 'int']. */
export type Column = readonly [string, 'text' | 'int' | 'bool'];
type Value = string | number | boolean | null;

/**
 * Rows of one table kept as column arrays, written with a few large statements:
 * `INSERT … SELECT * FROM unnest($1::text[], $2::int[], …)` takes any number of rows in a
 * handful of parameters, on PostgreSQL and PGlite alike.
 */
export class BulkTable {
  private readonly data: Value[][];
  rows = 0;

  constructor(
    readonly table: string,
    readonly columns: readonly Column[],
  ) {
    this.data = columns.map(() => []);
  }

  add(...values: Value[]): void {
    if (values.length !== this.columns.length) {
      throw new Error(`${this.table}: ${values.length} values for ${this.columns.length} columns`);
    }
    values.forEach((v, i) => this.data[i]?.push(v));
    this.rows += 1;
  }

  /** Writes every row, `chunk` rows per statement. */
  async write(conn: RawConnection, chunk = 20_000): Promise<void> {
    const names = this.columns.map(([name]) => name).join(', ');
    const params = this.columns.map(([, type], i) => `$${i + 1}::${type}[]`).join(', ');
    const statement = `INSERT INTO ${this.table} (${names}) SELECT * FROM unnest(${params})`;
    for (let start = 0; start < this.rows; start += chunk) {
      await conn.query(
        statement,
        this.data.map((column) => column.slice(start, start + chunk)),
      );
    }
  }
}
