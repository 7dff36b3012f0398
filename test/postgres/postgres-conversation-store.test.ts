// PostgresConversationStore against a real PostgreSQL server (test/support/postgres-server.ts starts one):
// the contract every store passes, then what only a database has: the table made on first use by several
// processes at once or by the documented SQL file, a schema of its own, deleting and expiring, close(),
// and a database that is down at the start or goes down between turns.
import { readFileSync } from "node:fs";
import { createServer, type Server, type Socket } from "node:net";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ConversationStoreUnavailableError,
  EntityToolsError,
  InvalidSettingError,
  StoredConversationUnreadableError,
  beginConversationTurn,
  type ConversationStore,
} from "entity-tools";
import { PostgresConversationStore } from "entity-tools/postgres";
import { FakePromptRunner } from "entity-tools/testing";
import { conversationStoreContract, snapshotSaying } from "../support/conversation-store-contract.js";
import { startCuttingProxy } from "../support/postgres-cutting-proxy.js";
import { postgresPresent, startPostgres, type PostgresServer } from "../support/postgres-server.js";

let server: PostgresServer;
let pool: pg.Pool;
const stores: PostgresConversationStore[] = [];
let tables = 0;

beforeAll(async () => {
  if (!postgresPresent) return;
  server = await startPostgres();
  pool = new pg.Pool({ connectionString: server.url, max: 20 });
  pool.on("error", () => {}); // the outage test stops the server under its idle connections
});
afterAll(async () => {
  for (const store of stores) await store.close();
  await pool?.end();
  await server?.remove();
});

/** A store of its own (own pool, from the connection string), closed after the file. */
function own(options: Partial<ConstructorParameters<typeof PostgresConversationStore>[0]> = {}) {
  const store = new PostgresConversationStore({ connectionString: server.url, ...options });
  stores.push(store);
  return store;
}

describe.skipIf(!postgresPresent)("PostgresConversationStore", () => {
  conversationStoreContract("PostgresConversationStore", {
    // Each test its own table, so conversation ids never meet; a user's pg.Pool.
    make: (options) => new PostgresConversationStore({ pool, table: `contract_${++tables}`, ...options }),
    // Another process: its own pool (connection string) on the same table.
    sameAs: (store, options) => own({ table: (store as PostgresConversationStore).table.table, ...options }),
    spec: (store) => ({
      kind: "postgres",
      connectionString: server.url,
      table: (store as PostgresConversationStore).table.table,
    }),
  });

  it("the table is made on first use by five processes at once, and each write lands", async () => {
    const five = Array.from({ length: 5 }, () => own({ table: "raced" }));
    const versions = await Promise.all(
      five.map((s, i) => s.put(`c-${i}`, snapshotSaying(`${i}`), undefined)),
    );
    expect(versions).toEqual([1, 1, 1, 1, 1]);
    expect((await five[0]!.get("c-4"))?.snapshot).toEqual(snapshotSaying("4"));
  });

  it("docs/postgres-conversation-store.sql makes the table the store makes; a store with createTable: false uses it", async () => {
    const sql = readFileSync("docs/postgres-conversation-store.sql", "utf8");
    const store = own({ createTable: false });
    expect(sql.endsWith(store.table.createSql)).toBe(true);
    await pool.query(sql.replace(/"entity_tools_conversations/g, '"from_sql_file'));
    const fromFile = own({ table: "from_sql_file", createTable: false });
    expect(await fromFile.put("c-1", snapshotSaying("one"), undefined)).toBe(1);
    const { rows } = await pool.query<{ data_type: string }>(
      "SELECT data_type FROM information_schema.columns WHERE table_name = 'from_sql_file' AND column_name = 'snapshot'",
    );
    expect(rows).toEqual([{ data_type: "text" }]); // not jsonb: it refuses a NUL character
    // Without the table and with createTable: false, the error names the table.
    await expect(own({ table: "never_made", createTable: false }).get("c-1")).rejects.toThrow(
      /^The conversation store \(PostgreSQL, table "public"\."never_made"\) is unavailable: relation "public\.never_made" does not exist\. Nothing was written; retry when it is back\.$/,
    );
  });

  it("a schema of its own: the table is made in it", async () => {
    const store = own({ schema: "chat_app", table: "conversations" });
    await store.put("c-1", snapshotSaying("one"), undefined);
    const { rows } = await pool.query("SELECT snapshot FROM chat_app.conversations");
    expect(rows).toEqual([{ snapshot: JSON.stringify(snapshotSaying("one")) }]);
  });

  it("deletes a conversation, and expires those not written since a cutoff", async () => {
    const store = own({ table: "expiry" });
    await store.put("old", snapshotSaying("old"), undefined);
    await store.put("recent", snapshotSaying("recent"), undefined);
    await store.put("gone", snapshotSaying("gone"), undefined);
    await pool.query(
      "UPDATE expiry SET updated_at = now() - interval '40 days' WHERE conversation_id = 'old'",
    );
    expect(await store.delete("gone")).toBe(true);
    expect(await store.delete("gone")).toBe(false);
    expect(await store.deleteOlderThan(new Date(Date.now() - 30 * 86_400_000))).toBe(1);
    expect(await store.get("old")).toBeUndefined();
    expect((await store.get("recent"))?.version).toBe(1);
    expect(await store.put("old", snapshotSaying("again"), undefined)).toBe(1); // a new conversation
  });

  it("close() ends the store's own pool; a pool of yours stays open", async () => {
    const mine = new PostgresConversationStore({ pool, table: "closing" });
    await mine.put("c-1", snapshotSaying("one"), undefined);
    await mine.close();
    expect((await pool.query("SELECT 1 AS one")).rows).toEqual([{ one: 1 }]);
    const itsOwn = own({ table: "closing" });
    expect((await itsOwn.get("c-1"))?.version).toBe(1);
    await itsOwn.close();
    await expect(itsOwn.get("c-1")).rejects.toThrow("is unavailable: the store was closed (close())");
  });

  it("a row that is not a snapshot (edited by hand) is StoredConversationUnreadableError naming the conversation", async () => {
    const store = own({ table: "edited" });
    await store.put("c-1", snapshotSaying("one"), undefined);
    await pool.query(`UPDATE edited SET snapshot = '{"format": "entity-tools/run-sn'`);
    await expect(store.get("c-1")).rejects.toThrow(StoredConversationUnreadableError);
    await expect(store.get("c-1")).rejects.toThrow(
      /^Conversation "c-1" cannot be read: its row in "public"\."edited" is not a stored conversation/,
    );
  });

  it("bad settings are refused when the store is made", () => {
    expect(() => new PostgresConversationStore({})).toThrow(InvalidSettingError);
    expect(() => new PostgresConversationStore({ pool, connectionString: server.url })).toThrow(
      "given exactly one of { pool } (a pg.Pool) and { connectionString }",
    );
    expect(() => new PostgresConversationStore({ pool, table: 'x"; drop table y; --' })).toThrow(
      "PostgresConversationStore table must be lower-case letters, digits and _ (at most 48)",
    );
    expect(() => own({ connectTimeoutMs: -1 })).toThrow(InvalidSettingError);
  });
});

describe.skipIf(!postgresPresent)("PostgresConversationStore when the database is down", () => {
  it("down at the start (nothing listens): a clear EntityToolsError, no hang", async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
    const { port } = probe.address() as { port: number };
    await new Promise((resolve) => probe.close(resolve));
    const store = own({ connectionString: `postgres://postgres@127.0.0.1:${port}/postgres` });
    const error = await store.get("c-1").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConversationStoreUnavailableError);
    expect((error as Error).message).toMatch(
      /^The conversation store \(PostgreSQL, table "public"\."entity_tools_conversations"\) is unavailable: .*ECONNREFUSED.*\. Nothing was written; retry when it is back\.$/,
    );
  });

  it("a server that accepts and never answers: the connect time is bounded (connectTimeoutMs)", async () => {
    const sockets: Socket[] = [];
    const silent: Server = createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const { port } = silent.address() as { port: number };
    const store = own({
      connectionString: `postgres://postgres@127.0.0.1:${port}/postgres`,
      connectTimeoutMs: 300,
    });
    const error = await store.put("c-1", snapshotSaying("x"), undefined).catch((e: unknown) => e);
    for (const socket of sockets) socket.destroy();
    silent.close();
    expect(error).toBeInstanceOf(ConversationStoreUnavailableError);
    expect((error as Error).message).toMatch(/is unavailable: .*timeout/i);
  });

  it("a save slower than queryTimeoutMs (its row locked by another session): refused, and it does not land later", async () => {
    const store = own({ table: "late_write", queryTimeoutMs: 300 });
    const first = await beginConversationTurn(store, "c-1");
    await first.save(snapshotSaying("turn 1"));
    const turn = await beginConversationTurn(store, "c-1");
    const row = `SELECT 1 FROM "public"."late_write" WHERE conversation_id = 'c-1' FOR UPDATE`;
    const locker = await pool.connect();
    try {
      await locker.query("BEGIN");
      await locker.query(row);
      const error = await turn.save(snapshotSaying("turn 2")).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ConversationStoreUnavailableError);
      expect((error as Error).message).toMatch(
        /statement timeout\. Nothing was written; retry when it is back\.$/,
      );
      await locker.query("COMMIT");
      // Locking the row again waits for every write queued on it: a write the caller was told failed
      // would land before this returns.
      await locker.query("BEGIN");
      await locker.query(row);
      await locker.query("COMMIT");
    } finally {
      locker.release();
    }
    expect((await store.get("c-1"))?.snapshot).toEqual(snapshotSaying("turn 1"));
  });

  it("a save whose answer is lost (the connection cut after the commit): the turn is saved once, and the caller is told so", async () => {
    const proxy = await startCuttingProxy(server.port);
    try {
      const store = own({
        table: "lost_answer",
        connectionString: server.url.replace(`:${server.port}/`, `:${proxy.port}/`),
      });
      const fake = new FakePromptRunner();
      fake.respondWithText("Hello.").respondWithText("Still here.").respondWithText("Yes.");
      for (const [i, prompt] of ["Hi", "Are you there?", "Sure?"].entries()) {
        const turn = await beginConversationTurn(store, "c-1");
        const run = await fake.run(prompt, { continueFrom: turn.snapshot });
        if (i === 1) proxy.cutNextAnswer("UPDATE");
        await turn.save(run.snapshot);
      }
      const history = (await store.get("c-1"))?.snapshot?.history.map((m) => m.content);
      expect(history?.filter((content) => typeof content === "string")).toEqual([
        "Hi",
        "Are you there?",
        "Sure?",
      ]);
    } finally {
      await proxy.close();
    }
  });

  it("down between two turns: the write fails clearly and changes nothing; back up, the conversation goes on from where it was", async () => {
    const store: ConversationStore = own({ table: "outage" });
    await store.put("c-1", snapshotSaying("turn 1"), undefined);
    await server.stop();
    try {
      const error = await store.put("c-1", snapshotSaying("turn 2"), 1).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ConversationStoreUnavailableError);
      expect(EntityToolsError.isInstance(error)).toBe(true);
    } finally {
      await server.start();
    }
    expect(await store.get("c-1")).toEqual({ snapshot: snapshotSaying("turn 1"), version: 1 });
    expect(await store.put("c-1", snapshotSaying("turn 2"), 1)).toBe(2);
  });
});
