/**
 * What the store needs of a database client: a `pg.Pool` fits (and any client with this `query`). Named
 * structurally, so the package's types never name `pg`.
 */
export interface PostgresPool {
  /** Runs one statement (several, separated by `;`, when `values` is omitted: the simple protocol). */
  query(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
}
