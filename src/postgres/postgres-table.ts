// The table the PostgreSQL store keeps conversations in: its name (schema and table, checked so they
// can be written into SQL), the statement that creates it (also shipped as
// docs/postgres-conversation-store.sql, which a test compares with this), and the statements the store runs.
import { InvalidSettingError } from "../errors/entity-tools-error.js";

const IDENTIFIER = /^[a-z_][a-z0-9_]{0,47}$/;

/** The default schema of the conversations table. */
export const DEFAULT_SCHEMA = "public";
/** The default name of the conversations table. */
export const DEFAULT_TABLE = "entity_tools_conversations";

/** One conversation store table, and the SQL the store runs on it. */
export class PostgresTable {
  /** Schema and table, quoted: `"public"."entity_tools_conversations"`. */
  readonly qualified: string;

  /** @throws InvalidSettingError for a name that is not lower-case letters, digits and `_` (≤ 48) */
  constructor(
    /** The PostgreSQL schema that holds the table; default `public`. */
    readonly schema: string = DEFAULT_SCHEMA,
    /** The table's name; default `entity_tools_conversations`. */
    readonly table: string = DEFAULT_TABLE,
  ) {
    for (const [setting, value] of [
      ["PostgresConversationStore schema", schema],
      ["PostgresConversationStore table", table],
    ] as const)
      if (typeof value !== "string" || !IDENTIFIER.test(value))
        throw new InvalidSettingError(setting, value, "lower-case letters, digits and _ (at most 48)");
    this.qualified = `"${schema}"."${table}"`;
  }

  /**
   * Creates the table when it is missing. Two processes may run it at once: the advisory lock (held to
   * the end of the statement's transaction) makes the second wait and then find the table.
   */
  get createSql(): string {
    return [
      `SELECT pg_advisory_xact_lock(hashtext('entity-tools:${this.schema}.${this.table}'));`,
      ...(this.schema === DEFAULT_SCHEMA ? [] : [`CREATE SCHEMA IF NOT EXISTS "${this.schema}";`]),
      `CREATE TABLE IF NOT EXISTS ${this.qualified} (`,
      "  conversation_id text PRIMARY KEY,",
      "  version integer NOT NULL,",
      "  snapshot text,",
      "  busy_until timestamptz,",
      "  created_at timestamptz NOT NULL DEFAULT now(),",
      "  updated_at timestamptz NOT NULL DEFAULT now()",
      ");",
      `CREATE INDEX IF NOT EXISTS "${this.table}_updated_at" ON ${this.qualified} (updated_at);`,
      "",
    ].join("\n");
  }

  /** Reads one conversation ($1: its id). */
  get selectSql(): string {
    return `SELECT version, snapshot, busy_until FROM ${this.qualified} WHERE conversation_id = $1`;
  }

  /** The first write: lands only when no row has the id (the compare-and-set of version "none"). */
  get insertSql(): string {
    return (
      `INSERT INTO ${this.qualified} (conversation_id, version, snapshot, busy_until) VALUES ($1, 1, $2, $3) ` +
      "ON CONFLICT (conversation_id) DO NOTHING RETURNING version"
    );
  }

  /** A later write: lands only when the row is still at the version it was based on ($4). */
  get updateSql(): string {
    return (
      `UPDATE ${this.qualified} SET version = version + 1, snapshot = $2, busy_until = $3, updated_at = now() ` +
      "WHERE conversation_id = $1 AND version = $4 RETURNING version"
    );
  }

  /** Moves a turn's claim ($3) while the row is still at the claim's version ($2); a row back when it was. */
  get renewSql(): string {
    return (
      `UPDATE ${this.qualified} SET busy_until = $3 ` +
      "WHERE conversation_id = $1 AND version = $2 AND busy_until IS NOT NULL RETURNING version"
    );
  }

  /** Deletes one conversation ($1: its id); a row back when there was one. */
  get deleteSql(): string {
    return `DELETE FROM ${this.qualified} WHERE conversation_id = $1 RETURNING version`;
  }

  /** Deletes the conversations not written since $1, and counts them. */
  get expireSql(): string {
    return (
      `WITH gone AS (DELETE FROM ${this.qualified} WHERE updated_at < $1 RETURNING 1) ` +
      "SELECT count(*)::integer AS count FROM gone"
    );
  }
}
