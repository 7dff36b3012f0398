// Handles mode as a hostile model and a demanding operator (docs/reliability.md, E rows): which provider a
// call's handle names, in the run log and the cost, when the run did not find it itself (another process,
// a conversation's next turn, a 2026-07-28 MCP request), and when the handle is refused; what a model
// or an MCP client reads when resolveProvider throws; where the handles notice says a handle goes; which
// handles a new runner of the same process takes.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import {
  EntityHandleCodec,
  LlmTool,
  PromptRunner,
  readRunLog,
  ToolProvider,
  type ProviderResolver,
  type RunLogRecord,
  type ToolFailedEvent,
} from "entity-tools";
import { Account, AccountNote, Bank, ran } from "../fixtures/bank.js";
import { search, shop } from "../support/shop-endpoint.js";
import { call, mockModel, text, toolResultsSeenAt, type MockTurn } from "../support/mock-model.js";

const KEY = "handle-calls-test-key-0123456789";
const codec = new EntityHandleCodec(KEY);
const dir = mkdtempSync(path.join(tmpdir(), "handle-calls-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The call records of the run logs in `folder`, in file order. */
function callRecords(folder: string): Extract<RunLogRecord, { type: "call" }>[] {
  return readdirSync(folder)
    .filter((f) => f.endsWith(".jsonl"))
    .sort()
    .flatMap((f) => readRunLog(readFileSync(path.join(folder, f), "utf8")).records)
    .filter((r): r is Extract<RunLogRecord, { type: "call" }> => r.type === "call");
}

/** The bank's resolver: each account by its typed id. */
const accounts: ProviderResolver = (_cls, id) => new Bank().accounts.find((a) => a.id === id);

/** A priced, logged handles-mode run in a process that never saw the handles: classes known up front. */
async function freshRun(folder: string, resolveProvider: ProviderResolver, ...turns: MockTurn[]) {
  const model = mockModel(...turns, text("done"));
  const run = await new PromptRunner({ model })
    .withTools(new Bank())
    .withToolProviderDiscovery({
      binding: "handles",
      handleKey: KEY,
      classes: [Account, AccountNote],
      resolveProvider,
    })
    .withPricing({ input: 1, output: 1 })
    .withRunLog(folder)
    .run("Bob's balance?");
  return { run, model };
}

const account = (id: number) => ({ providerClass: "Account", id, idType: "number" });
const bob = new Bank().accounts[1]!;

beforeEach(() => {
  ran.length = 0;
});

describe("a handle this run did not find", () => {
  it("re-bound through resolveProvider: the call record names its provider, and the call is its cost", async () => {
    const folder = path.join(dir, "resolved");
    const { run, model } = await freshRun(
      folder,
      accounts,
      call("account_getBalance", { handle: codec.handleOf(bob) }),
    );
    expect(toolResultsSeenAt(model, 1)).toEqual(["50"]);
    expect(callRecords(folder).map((r) => [r.tool, r.ok, r.provider])).toEqual([
      ["account_getBalance", true, account(2)],
    ]);
    expect(run.cost!.perProvider).toEqual([expect.objectContaining({ identity: account(2), calls: 1 })]);
  });

  it("valid but not found: the model reads why, and the record still names the provider it was for", async () => {
    const folder = path.join(dir, "unresolved");
    const { model } = await freshRun(
      folder,
      () => undefined,
      call("account_getBalance", { handle: codec.handleOf(bob) }),
    );
    expect(toolResultsSeenAt(model, 1)[0]).toMatch(
      /^Tool "account_getBalance" failed: The handle "Account#2~[\w-]{22}" is valid, but Account 2 is not available: resolveProvider returned nothing\./,
    );
    expect(callRecords(folder).map((r) => [r.reason, r.provider])).toEqual([["threw", account(2)]]);
  });

  it("refused (changed, another key's, another class's): the record names no provider, and no cost is its", async () => {
    const folder = path.join(dir, "refused");
    const real = codec.handleOf(bob);
    const { run, model } = await freshRun(
      folder,
      accounts,
      call("account_getBalance", { handle: `${real.slice(0, -4)}AAAA` }),
      call("account_getBalance", { handle: new EntityHandleCodec("another key, 16 bytes").handleOf(bob) }),
      // Same prefix, same id: the note's handle is refused for an account's tool.
      call("account_getBalance", { handle: codec.handleOf(new AccountNote(2)) }),
    );
    const seen = [1, 2, 3].map((i) => toolResultsSeenAt(model, i).at(-1)!);
    const signature =
      / has a signature this runner did not make: it was changed, or minted with another handleKey /;
    expect(seen[0]).toMatch(signature);
    expect(seen[1]).toMatch(signature);
    expect(seen[2]).toMatch(/ is of class AccountNote, and this tool takes handles of class Account\./);
    // The expected signature is never told: the model cannot learn a handle it was not given.
    for (const s of seen) expect(s).not.toContain(real.slice(-22));
    expect(ran).toEqual([]);
    expect(callRecords(folder).map((r) => [r.reason, r.provider])).toEqual(
      Array(3).fill(["invalid-input", undefined]),
    );
    expect(run.cost!.perProvider).toEqual([]);
  });
});

describe("a resolveProvider that throws in a run", () => {
  it("the model reads that the entity could not be loaded and what to do, not what it threw; the caller's events and the log have it", async () => {
    const folder = path.join(dir, "run-threw");
    const thrown = new Error("connect ECONNREFUSED postgres://bank:s3cret@db.internal/bank");
    const failed: ToolFailedEvent[] = [];
    const model = mockModel(call("account_getBalance", { handle: codec.handleOf(bob) }), text("sorry"));
    await new PromptRunner({ model })
      .withTools(new Bank())
      .withToolProviderDiscovery({
        binding: "handles",
        handleKey: KEY,
        classes: [Account, AccountNote],
        resolveProvider: () => {
          throw thrown;
        },
      })
      .withRunLog(folder, { recordContent: true })
      .withObserver((event) => {
        if (event.type === "ToolFailed") failed.push(event);
      })
      .run("Bob's balance?");
    const seen = toolResultsSeenAt(model, 1);
    expect(seen).toEqual([
      `Tool "account_getBalance" failed: The handle "${codec.handleOf(bob)}" is valid, but Account 2 could not be ` +
        "loaded: resolveProvider failed (the operator can see why). Try the call again later, or call again the " +
        "tool that found it and use what it returns",
    ]);
    expect(JSON.stringify(model.doGenerateCalls)).not.toContain("s3cret");
    expect(failed).toEqual([
      expect.objectContaining({
        reason: "threw",
        message: seen[0],
        cause: thrown,
        provider: { ...account(2), method: "getBalance" },
      }),
    ]);
    expect(callRecords(folder)[0]!.cause).toBe(
      "Error: connect ECONNREFUSED postgres://bank:s3cret@db.internal/bank",
    );
  });
});

describe("a handle with spaces or a line break around it (a model's or a wire's)", () => {
  it("is the handle it holds: the call runs on its provider", async () => {
    const folder = path.join(dir, "padded");
    const { model } = await freshRun(
      folder,
      accounts,
      call("account_getBalance", { handle: ` ${codec.handleOf(bob)}\n` }),
    );
    expect(toolResultsSeenAt(model, 1)).toEqual(["50"]);
    expect(callRecords(folder).map((r) => r.provider)).toEqual([account(2)]);
  });
});

describe("a conversation's next turn in another process", () => {
  it("the call through a handle of turn 1 names its provider in turn 2's run log", async () => {
    const folder = path.join(dir, "next-turn");
    const runner = (model: ReturnType<typeof mockModel>, resolveProvider?: ProviderResolver) =>
      new PromptRunner({ model })
        .withTools(new Bank())
        .withToolProviderDiscovery({ binding: "handles", handleKey: KEY, resolveProvider })
        .withRunLog(folder);
    const turn1 = await runner(mockModel(call("findAccounts", { owner: "Bob" }), text("found"))).run("Bob?");
    const snapshot = JSON.parse(JSON.stringify(turn1.snapshot)) as typeof turn1.snapshot;
    const model = mockModel(call("account_getBalance", { handle: codec.handleOf(bob) }), text("50"));
    await runner(model, accounts).run("His balance?", { continueFrom: snapshot });
    expect(toolResultsSeenAt(model, 1).at(-1)).toBe("50");
    expect(callRecords(folder).map((r) => [r.tool, r.provider])).toEqual([
      ["findAccounts", undefined],
      ["account_getBalance", account(2)],
    ]);
  });
});

describe("our MCP server at 2026-07-28", () => {
  const c123 = search.findCustomers("").find((c) => c.id === "c123")!;
  const mcpCodec = new EntityHandleCodec("test key of the shop");

  it("each request re-binds the handle: its call record names the provider", async () => {
    const folder = path.join(dir, "mcp");
    const client = await shop({ runLog: folder }).connect();
    const spend = await client.callTool({
      name: "customer_getAverageSpend",
      arguments: { handle: mcpCodec.handleOf(c123) },
    });
    expect(spend.isError).toBe(false);
    expect(callRecords(folder).map((r) => [r.tool, r.provider])).toEqual([
      ["customer_getAverageSpend", { providerClass: "Customer", id: "c123", idType: "string" }],
    ]);
  });
  it("a resolveProvider that throws: the client reads that the lookup failed, not what it threw; the log's cause has it", async () => {
    const folder = path.join(dir, "mcp-threw");
    const client = await shop({
      runLog: { dir: folder, recordContent: true },
      resolveProvider: () => {
        throw new Error("connect ECONNREFUSED postgres://shop:s3cret@db.internal/shop");
      },
    }).connect();
    const spend = await client.callTool({
      name: "customer_getAverageSpend",
      arguments: { handle: mcpCodec.handleOf(c123) },
    });
    const said = (spend.content as { text: string }[])[0]!.text;
    expect(spend.isError).toBe(true);
    expect(said).not.toContain("s3cret");
    expect(said).toMatch(
      /^Tool "customer_getAverageSpend" failed: The handle "Customer:c123~[\w-]{22}" is valid, but Customer "c123" could not be loaded: resolveProvider failed \(the operator can see why\)\. Try the call again later, or call again the tool that found it and use what it returns$/,
    );
    const [record] = callRecords(folder);
    expect(record).toMatchObject({
      reason: "threw",
      result: said,
      provider: { providerClass: "Customer", id: "c123", idType: "string" },
    });
    expect(record!.cause).toContain("Error: connect ECONNREFUSED postgres://shop:s3cret@db.internal/shop");
  });
});

describe("a conversation continued by a new runner without handleKey (a runner per request)", () => {
  const runner = (model: ReturnType<typeof mockModel>, handleKey?: string) =>
    new PromptRunner({ model })
      .withTools(new Bank())
      .withToolProviderDiscovery({ binding: "handles", handleKey });
  const handleIn = (prompt: unknown) => /(Account#2~[\w-]{22})/.exec(JSON.stringify(prompt))![1]!;
  /** Turn 1, on a runner of its own without handleKey: the handle the model read. */
  async function firstTurn() {
    let handle = "";
    const turn = await runner(
      mockModel(call("findAccounts", { owner: "Bob" }), (options) => {
        handle = handleIn(options.prompt);
        return { text: "found" };
      }),
    ).run("Bob's account?");
    return { handle, snapshot: turn.snapshot };
  }

  it("in the same process: turn 1's handle runs on turn 2, at the first call", async () => {
    const { handle, snapshot } = await firstTurn();
    const model = mockModel(call("account_getBalance", { handle }), text("50"));
    const turn2 = await runner(model).run("His balance?", { continueFrom: snapshot });
    expect(toolResultsSeenAt(model, 1).at(-1)).toBe("50");
    expect(turn2.result).toBe("50");
  });

  it("where the key differs (another process): the model reads how to get a handle this runner takes, and the call runs once it has one", async () => {
    const { handle, snapshot } = await firstTurn();
    const model = mockModel(
      call("account_getBalance", { handle }),
      call("findAccounts", { owner: "Bob" }),
      (options) => call("account_getBalance", { handle: handleIn(options.prompt.slice(-1)) }),
      text("50"),
    );
    await runner(model, KEY).run("His balance?", { continueFrom: snapshot });
    expect(toolResultsSeenAt(model, 1).at(-1)).toBe(
      `Invalid arguments for "account_getBalance": The handle "${handle}" has a signature this runner did not make: ` +
        "it was changed, or minted with another handleKey (without handleKey, each process signs with a key of its own). " +
        "Use a handle exactly as a tool result of this runner gave it: call again the tool that found the entity.",
    );
    expect(toolResultsSeenAt(model, 3).at(-1)).toBe("50");
  });
});

/** A door whose label method has a parameter named handle: the door's own handle goes in `_handle`. */
@ToolProvider({ prefix: "door" })
class Door {
  constructor(public id: string) {}
  @LlmTool({
    description: "Label the door's handle",
    parameters: { type: "object", properties: { handle: { type: "string" } }, required: ["handle"] },
  })
  label(handle: string): string {
    return `${this.id}: ${handle} handle`;
  }
  @LlmTool("Open this door")
  open(): string {
    return `${this.id} is open`;
  }
}

class House {
  @LlmTool("The house's doors")
  doors(): Door[] {
    return [new Door("d1")];
  }
}

describe("the handles notice", () => {
  it("of a class with an operation that takes its handle as _handle says where each goes, and the call runs", async () => {
    const handle = codec.handleOf(new Door("d1"));
    const model = mockModel(
      call("doors"),
      call("door_label", { _handle: handle, handle: "brass" }),
      text("labelled"),
    );
    await new PromptRunner({ model })
      .withTools(new House())
      .withToolProviderDiscovery({ binding: "handles", handleKey: KEY })
      .run("Label the door");
    expect(toolResultsSeenAt(model, 1)).toEqual([
      `[{"id":"d1"}]\n\n[Door handle ["${handle}"]; operations: door_label (as "_handle"), door_open; ` +
        'pass a handle as "handle", or as the property an operation names.]',
    ]);
    expect(toolResultsSeenAt(model, 2).at(-1)).toBe("d1: brass handle");
  });
});
