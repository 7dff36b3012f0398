/**
 * entity-tools/postgres: conversations in PostgreSQL, for chats served by several processes. Needs `pg`
 * (node-postgres), an optional peer that only this entry loads.
 *
 * @packageDocumentation
 */
export { PostgresConversationStore } from "./postgres-conversation-store.js";
export type { PostgresConversationStoreOptions } from "./postgres-conversation-store.js";
export type { PostgresPool } from "./postgres-pool.js";
export { PostgresTable, DEFAULT_SCHEMA, DEFAULT_TABLE } from "./postgres-table.js";
export { PostgresStoreError } from "./postgres-store-error.js";
