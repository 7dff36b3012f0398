// The only file that loads `pg` (node-postgres), an optional peer: only a store that opens its own pool
// (from a connection string) needs it, and only when it is first used.
import { PostgresStoreError } from "./postgres-store-error.js";
import type { PostgresPool } from "./postgres-pool.js";

/** What the store gives `new pg.Pool(...)`. */
export interface OwnPoolSettings {
  readonly connectionString: string;
  readonly connectTimeoutMs: number;
  readonly queryTimeoutMs: number;
  readonly maxConnections: number;
}

/**
 * A `pg.Pool` of the store's own, with bounded connect and query times. The query time is the server's
 * (`statement_timeout`): it cancels a statement that runs longer, so a write the caller was told failed
 * cannot land later (node-postgres's own `query_timeout` only stops waiting, and a write queued behind a
 * row lock then commits after the caller heard "nothing was written"). `query_timeout` stays as a
 * backstop for a server that stops answering, a connect time later. An idle connection the server
 * drops (a restart) emits `error` on the pool: handled here, so it cannot end the process; the next
 * query opens a new connection.
 *
 * @throws PostgresStoreError when `pg` is not installed
 */
export async function openPool(settings: OwnPoolSettings): Promise<PostgresPool & { end(): Promise<void> }> {
  let pg: { Pool?: unknown; default?: { Pool?: unknown } };
  try {
    pg = (await import("pg")) as typeof pg;
  } catch (error) {
    throw new PostgresStoreError(
      `PostgresConversationStore could not load pg (node-postgres): ${(error as Error).message}. Install it with \`npm install pg\`.`,
      { cause: error },
    );
  }
  const Pool = (pg.default?.Pool ?? pg.Pool) as
    | (new (
        config: object,
      ) => PostgresPool & { end(): Promise<void>; on(event: "error", f: () => void): void })
    | undefined;
  if (typeof Pool !== "function")
    throw new PostgresStoreError("pg does not export Pool: install pg 8 (`npm install pg@8`).");
  const pool = new Pool({
    connectionString: settings.connectionString,
    connectionTimeoutMillis: settings.connectTimeoutMs,
    statement_timeout: settings.queryTimeoutMs,
    query_timeout: settings.queryTimeoutMs + settings.connectTimeoutMs,
    max: settings.maxConnections,
  });
  pool.on("error", () => {});
  return pool;
}
