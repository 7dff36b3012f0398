// A ConversationStore in PostgreSQL, for chats served by several processes. Every write is one
// compare-and-set statement (INSERT … ON CONFLICT DO NOTHING for the first, UPDATE … WHERE version = N
// after), so of two writers of one version exactly one row changes; the other gets the conflict. Snapshots
// are stored as their JSON text in a `text` column: `jsonb` refuses a NUL character, text keeps any content.
import { InvalidSettingError } from "../errors/entity-tools-error.js";
import { ConversationConflictError, storeFailure } from "../conversations/conversation-store-errors.js";
import {
  checkConversationId,
  type ConversationStore,
  type StoredConversation,
} from "../conversations/conversation-store-port.js";
import type { RunSnapshot } from "../loop/snapshot/run-snapshot.js";
import { snapshotFromText, snapshotText } from "../conversations/stored-snapshot-text.js";
import { openPool } from "./load-pg.js";
import type { PostgresPool } from "./postgres-pool.js";
import { PostgresTable } from "./postgres-table.js";

/** Options of {@link PostgresConversationStore}: a pool of yours, or a connection string. */
export interface PostgresConversationStoreOptions {
  /** A `pg.Pool` (yours: `close()` leaves it open). Exactly one of `pool` and `connectionString`. */
  readonly pool?: PostgresPool | undefined;
  /**
   * `postgres://user:password@host:5432/db`: the store opens its own `pg.Pool`, which `close()` ends.
   * `undefined` (an unset `process.env.DATABASE_URL`) counts as not given.
   */
  readonly connectionString?: string | undefined;
  /** The schema of the table (created when missing). Default `public`. */
  readonly schema?: string | undefined;
  /** The table's name. Default `entity_tools_conversations`. */
  readonly table?: string | undefined;
  /**
   * Create the table on first use when it is missing (safe with several processes at once). Default
   * true; false when it was made by docs/postgres-conversation-store.sql and the store may not create tables.
   */
  readonly createTable?: boolean | undefined;
  /** With `connectionString`: how long a connection may take before the call fails. Default 5 000 ms. */
  readonly connectTimeoutMs?: number | undefined;
  /** With `connectionString`: how long one statement may take. Default 30 000 ms. */
  readonly queryTimeoutMs?: number | undefined;
  /** With `connectionString`: the pool's size. Default 10. */
  readonly maxConnections?: number | undefined;
  /** A snapshot whose JSON is larger is refused (`ConversationTooLargeError`). Default 32 MiB. */
  readonly maxSnapshotBytes?: number | undefined;
}

interface VersionRow {
  readonly version: number;
  readonly snapshot?: string | null;
  readonly busy_until?: Date | null;
}

/**
 * A {@link ConversationStore} in a PostgreSQL table, with the rules of `FileConversationStore` (ids,
 * versions, conflicts, content): several server processes can serve one conversation, and turns from two
 * of them never both land. Loaded from `entity-tools/postgres` only, so `pg` is needed only here.
 */
export class PostgresConversationStore implements ConversationStore {
  /** The table, with its schema. */
  readonly table: PostgresTable;
  private pool: Promise<PostgresPool & { end?(): Promise<void> }> | undefined;
  private ready: Promise<void> | undefined;
  private readonly own: boolean;
  private closed = false;

  /** @throws InvalidSettingError for neither or both of `pool` and `connectionString`, or a bad name */
  constructor(private readonly options: PostgresConversationStoreOptions) {
    if ((options.pool === undefined) === (options.connectionString === undefined))
      throw new InvalidSettingError(
        "PostgresConversationStore",
        "neither or both of pool and connectionString",
        "given exactly one of { pool } (a pg.Pool) and { connectionString }",
      );
    for (const setting of ["connectTimeoutMs", "queryTimeoutMs", "maxConnections"] as const) {
      const value = options[setting];
      if (value !== undefined && !(Number.isInteger(value) && value > 0))
        throw new InvalidSettingError(`PostgresConversationStore ${setting}`, value, "a positive integer");
    }
    this.table = new PostgresTable(options.schema, options.table);
    this.own = options.pool === undefined;
    if (options.pool) this.pool = Promise.resolve(options.pool);
  }

  /** The conversation, or undefined when nothing was written under this id. */
  async get(conversationId: string): Promise<StoredConversation | undefined> {
    checkConversationId(conversationId);
    const [row] = await this.query<VersionRow>(this.table.selectSql, [conversationId]);
    if (!row) return undefined;
    const where = `its row in ${this.table.qualified}`;
    return {
      snapshot: row.snapshot == null ? undefined : snapshotFromText(conversationId, row.snapshot, where),
      version: row.version,
      ...(row.busy_until ? { busyUntil: row.busy_until.getTime() } : {}),
    };
  }

  /** Writes `snapshot` as the next version if the store is at `expectedVersion`; returns the new one. */
  async put(
    conversationId: string,
    snapshot: RunSnapshot | undefined,
    expectedVersion: number | undefined,
    busyUntil?: number,
  ): Promise<number> {
    checkConversationId(conversationId);
    const text =
      snapshot === undefined ? null : snapshotText(conversationId, snapshot, this.options.maxSnapshotBytes);
    const busy = busyUntil === undefined ? null : new Date(busyUntil);
    const [row] =
      expectedVersion === undefined
        ? await this.query<VersionRow>(this.table.insertSql, [conversationId, text, busy])
        : await this.query<VersionRow>(this.table.updateSql, [conversationId, text, busy, expectedVersion]);
    if (row) return row.version;
    const [actual] = await this.query<VersionRow>(this.table.selectSql, [conversationId]);
    throw new ConversationConflictError(conversationId, expectedVersion, actual?.version);
  }

  /** Moves a turn's claim to end at `busyUntil` if the conversation is still at `version` (else false). */
  async renewTurn(conversationId: string, version: number, busyUntil: number): Promise<boolean> {
    checkConversationId(conversationId);
    return (await this.query(this.table.renewSql, [conversationId, version, new Date(busyUntil)])).length > 0;
  }

  /** Deletes a conversation; whether there was one. */
  async delete(conversationId: string): Promise<boolean> {
    checkConversationId(conversationId);
    return (await this.query(this.table.deleteSql, [conversationId])).length > 0;
  }

  /** Deletes the conversations not written since `cutoff` (expiry: run it on a schedule); how many. */
  async deleteOlderThan(cutoff: Date): Promise<number> {
    if (!(cutoff instanceof Date) || Number.isNaN(cutoff.getTime()))
      throw new InvalidSettingError("deleteOlderThan", cutoff, "a valid Date");
    const [row] = await this.query<{ count: number }>(this.table.expireSql, [cutoff]);
    return row?.count ?? 0;
  }

  /** Ends the pool the store opened from `connectionString` (a `pool` of yours stays open); later calls fail. */
  async close(): Promise<void> {
    const pool = this.pool;
    if (this.closed) return;
    this.closed = true;
    if (this.own && pool) await (await pool.catch(() => undefined))?.end?.();
  }

  /** One statement, after the table is there; a database failure becomes ConversationStoreUnavailableError. */
  private async query<Row>(text: string, values: unknown[]): Promise<Row[]> {
    try {
      if (this.closed) throw new Error("the store was closed (close())");
      const pool = await this.connect();
      this.ready ??= this.createTable(pool);
      await this.ready;
      return (await pool.query(text, values)).rows as Row[];
    } catch (error) {
      throw storeFailure(`PostgreSQL, table ${this.table.qualified}`, error);
    }
  }

  private connect(): Promise<PostgresPool & { end?(): Promise<void> }> {
    this.pool ??= openPool({
      connectionString: this.options.connectionString!,
      connectTimeoutMs: this.options.connectTimeoutMs ?? 5_000,
      queryTimeoutMs: this.options.queryTimeoutMs ?? 30_000,
      maxConnections: this.options.maxConnections ?? 10,
    });
    return this.pool;
  }

  /** Once per store (again after a failure: the database may have been down). */
  private async createTable(pool: PostgresPool): Promise<void> {
    if (this.options.createTable === false) return;
    try {
      await pool.query(this.table.createSql);
    } catch (error) {
      this.ready = undefined;
      throw error;
    }
  }
}
