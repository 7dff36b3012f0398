// 7. Conversation stores under load: 200 conversations at once, 5 turns each, through one store
// (PostgreSQL on one database; files in one directory). A turn is what a chat server adds around a run:
// beginConversationTurn (read and claim) and save. Measured per turn; afterwards every conversation must
// hold exactly its 5 turns in order (nothing lost, nothing twice). PostgreSQL: DATABASE_URL, else a
// server started here from Debian's postgresql package (as the tests do).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import {
  beginConversationTurn,
  FileConversationStore,
  type ConversationStore,
  type RunSnapshot,
} from "entity-tools";
import { PostgresConversationStore } from "entity-tools/postgres";
import { FakePromptRunner } from "entity-tools/testing";
import { postgresBinaries, startPostgres } from "../test/support/postgres-server.js";
import { ms, type BenchRow } from "./measure.js";

const CONVERSATIONS = 200;
const TURNS = 5;

/** The snapshot of a real one-turn run: what each turn extends with a question and an answer. */
async function firstSnapshot(): Promise<RunSnapshot> {
  return (await new FakePromptRunner().respondWithText("Hello, how can I help?").run("Hi")).snapshot;
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;

/** Every conversation's turns at once; each turn's store time, and the conversations that came out wrong. */
async function load(store: ConversationStore, base: RunSnapshot, conversations = CONVERSATIONS) {
  const times: number[] = [];
  const wrong: string[] = [];
  const prefix = `bench-${Date.now()}`;
  await Promise.all(
    Array.from({ length: conversations }, async (_, c) => {
      const id = `${prefix}-${c}`;
      for (let t = 1; t <= TURNS; t++) {
        const start = performance.now();
        const turn = await beginConversationTurn(store, id);
        const before = turn.snapshot ?? { ...base, history: [] };
        const snapshot: RunSnapshot = {
          ...before,
          history: [
            ...before.history,
            { role: "user", content: `turn ${t} of conversation ${c}` },
            {
              role: "assistant",
              content: [{ type: "text", text: `answer ${t}: ${"lorem ipsum ".repeat(40)}` }],
            },
          ],
        };
        await turn.save(snapshot);
        times.push(performance.now() - start);
      }
      const stored = await store.get(id);
      const asked = stored?.snapshot?.history.flatMap((m) => (m.role === "user" ? [m.content] : []));
      const expected = Array.from({ length: TURNS }, (_, i) => `turn ${i + 1} of conversation ${c}`);
      if (JSON.stringify(asked) !== JSON.stringify(expected) || stored?.version !== TURNS * 2) wrong.push(id);
    }),
  );
  times.sort((x, y) => x - y);
  return { p50: percentile(times, 0.5), p95: percentile(times, 0.95), turns: times.length, wrong };
}

export async function conversationStores(): Promise<BenchRow[]> {
  const base = await firstSnapshot();
  const rows: BenchRow[] = [];
  const row = (measure: string, value: string, goal = "", met?: boolean): BenchRow => ({
    bench: "7 conversation stores",
    measure,
    value,
    goal,
    met,
  });
  const report = async (name: string, store: ConversationStore) => {
    const result = await load(store, base);
    const alone = await load(store, base, 1); // after the load: connections open, table made
    rows.push(
      row(
        `${name}: store time per turn (claim + save), one conversation alone, p50 · p95`,
        `${ms(alone.p50)} · ${ms(alone.p95)}`,
      ),
      row(
        `${name}: store time per turn, ${CONVERSATIONS} conversations at once, p50 · p95`,
        `${ms(result.p50)} · ${ms(result.p95)}`,
      ),
      row(
        `${name}: ${CONVERSATIONS} conversations × ${TURNS} turns at once: turns lost or twice`,
        `${result.wrong.length} of ${CONVERSATIONS}`,
        "0",
        result.wrong.length === 0 && result.turns === CONVERSATIONS * TURNS,
      ),
    );
  };

  const dir = mkdtempSync(path.join(tmpdir(), "bench-conversations-"));
  try {
    await report("FileConversationStore", new FileConversationStore(dir));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }

  const server = process.env.DATABASE_URL
    ? undefined
    : postgresBinaries()
      ? await startPostgres({ fsync: true })
      : undefined;
  const url = process.env.DATABASE_URL ?? server?.url;
  if (!url) {
    rows.push(row("PostgresConversationStore", "skipped: no DATABASE_URL and no PostgreSQL installed"));
    return rows;
  }
  const store = new PostgresConversationStore({ connectionString: url });
  try {
    await report("PostgresConversationStore (pool of 10)", store);
  } finally {
    await store.close();
    await server?.remove();
  }
  return rows;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href)
  for (const r of await conversationStores())
    console.log(`| ${r.measure} | ${r.value} | ${r.goal} | ${r.met ?? ""} |`);
