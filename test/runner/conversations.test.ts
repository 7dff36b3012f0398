// Conversations: a run continued turn after turn with `continueFrom` keeps what it discovered; a snapshot
// restored in a fresh runner (another process) re-binds its providers through resolveProvider; a tool
// that could not be bound again tells the model how to get it back.
import "../fixtures/store/register.js";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createOpenAI } from "@ai-sdk/openai";
import { afterEach, describe, expect, it } from "vitest";
import { PromptRunner, readRunLog, type RunSnapshot, type ToolLoopEvent } from "entity-tools";
import { FakePromptRunner } from "entity-tools/testing";
import { CustomerSearchTools } from "../fixtures/store/customer-search-tools.js";
import { startOpenAiMock, type OpenAiMock } from "../support/openai-mocks.js";

const asJson = (snapshot: RunSnapshot) => JSON.parse(JSON.stringify(snapshot)) as RunSnapshot;

/** Customers found again by id, as a repository in another process would. */
const resolveCustomer = (providerClass: string, id: string | number) =>
  providerClass === "Customer"
    ? new CustomerSearchTools().findCustomers("").find((c) => c.id === id)
    : undefined;

/** A fake runner scripted for three turns: find John, his spend, his recent orders. */
function threeTurnFake(): FakePromptRunner {
  const fake = new FakePromptRunner();
  fake
    .callTool("searchCustomer", { name: "John Smith" })
    .respondWithText("Found John Smith (c123).")
    .callTool("customer_c123_getAverageSpend")
    .respondWithText("46.83 USD a month.")
    .callTool("customer_c123_recentOrders", { limit: 1 })
    .respondWithText("His latest order is o-1.");
  return fake;
}

describe("continueFrom through FakePromptRunner", () => {
  it("three turns: turn 2 and 3 call tools found in turn 1 without searching again; history and counters carry over", async () => {
    const fake = threeTurnFake();
    const runner = fake.withTools(new CustomerSearchTools()).withToolProviderDiscovery();
    const turn1 = await runner.run("Find John Smith");
    const turn2 = await runner.run("What does he spend?", { continueFrom: turn1.snapshot });
    expect(fake.toolsOfferedAt(1)).toContain("customer_c123_getAverageSpend");
    expect(fake.calls.map((c) => [c.toolName, c.resultText])).toEqual([
      ["customer_c123_getAverageSpend", '{"amount":46.83,"currency":"USD"}'],
    ]);
    const turn3 = await runner.run("And his latest order?", { continueFrom: turn2.snapshot });
    expect(fake.calls.map((c) => c.toolName)).toEqual(["customer_c123_recentOrders"]);
    expect(turn3.result).toBe("His latest order is o-1.");
    const users = turn3.conversationHistory.filter((m) => m.role === "user").map((m) => m.content);
    expect(users).toEqual(["Find John Smith", "What does he spend?", "And his latest order?"]);
    expect(turn3.totalIterations).toBe(6);
    expect(turn3.counters.modelCalls).toBe(6);
    expect(turn3.counters.toolCalls).toBe(3);
    expect(turn2.injectedTools).toEqual([]); // nothing new in turn 2: the customer's tools were bound
    fake.verifyExpectations();
  });

  it("stream() continues too: the discovered tool is called in the streamed turn, and its result streams", async () => {
    const fake = threeTurnFake();
    const runner = fake.withTools(new CustomerSearchTools()).withToolProviderDiscovery();
    const turn1 = await runner.run("Find John Smith");
    const stream = runner.stream("What does he spend?", { continueFrom: turn1.snapshot });
    const results: string[] = [];
    for await (const part of stream.parts)
      if (part.type === "tool-result") results.push(`${part.toolName} ${part.output}`);
    expect(results).toEqual(['customer_c123_getAverageSpend {"amount":46.83,"currency":"USD"}']);
    expect((await stream.result).result).toBe("46.83 USD a month.");
  });

  it("a restored conversation (JSON snapshot, fresh runner: another process) re-binds through resolveProvider", async () => {
    const first = threeTurnFake();
    const turn1 = await first
      .withTools(new CustomerSearchTools())
      .withToolProviderDiscovery()
      .run("Find John Smith");
    const stored = JSON.stringify(turn1.snapshot);

    const fake = new FakePromptRunner();
    fake.callTool("customer_c123_getAverageSpend").respondWithText("46.83 USD a month.");
    const turn2 = await fake
      .withTools(new CustomerSearchTools())
      .withToolProviderDiscovery()
      .run("What does he spend?", { continueFrom: JSON.parse(stored), resolveProvider: resolveCustomer });
    expect(fake.toolsOfferedAt(1)).toContain("customer_c123_getAverageSpend");
    expect(fake.callsAt(1)[0]).toMatchObject({
      resultText: '{"amount":46.83,"currency":"USD"}',
      isError: false,
    });
    expect(turn2.result).toBe("46.83 USD a month.");
  });

  it("a tool of an earlier turn that cannot be bound again gets an error result saying how to get it back", async () => {
    const first = threeTurnFake();
    const turn1 = await first
      .withTools(new CustomerSearchTools())
      .withToolProviderDiscovery()
      .run("Find John Smith");
    const fake = new FakePromptRunner();
    fake.callUnknownTool("customer_c123_getAverageSpend").respondWithText("I need to look him up again.");
    await fake
      .withTools(new CustomerSearchTools())
      .withToolProviderDiscovery()
      .run("What does he spend?", { continueFrom: asJson(turn1.snapshot) }); // no resolveProvider
    expect(fake.callsAt(1)[0]!.resultText).toBe(
      'Tool "customer_c123_getAverageSpend" is no longer available: it belonged to Customer "c123" in an earlier turn, which could not be bound again. ' +
        'To get it back, find Customer "c123" again with the tool that returned it; its tools are then offered again. Available tools: searchCustomer, findCustomers.',
    );
  });

  it("a resolveProvider that throws: the model reads that it failed, not what it threw; the observer gets it, the run log only with recordContent", async () => {
    const turn1 = await threeTurnFake()
      .withTools(new CustomerSearchTools())
      .withToolProviderDiscovery()
      .run("Find John Smith");
    const thrown = new Error("connect ECONNREFUSED postgres://u:s3cret@db:5432/shop");
    const fake = new FakePromptRunner();
    fake.respondWithText("I need to look him up again.");
    const events: ToolLoopEvent[] = [];
    const dir = mkdtempSync(path.join(tmpdir(), "continue-unrestored-"));
    try {
      await fake
        .withTools(new CustomerSearchTools())
        .withToolProviderDiscovery()
        .withObserver((e) => events.push(e))
        .withRunLog(dir, { recordContent: false })
        .run("What does he spend?", {
          continueFrom: asJson(turn1.snapshot),
          resolveProvider: () => {
            throw thrown;
          },
        });
      const prompt = JSON.stringify(fake.modelCalls.map((c) => c.prompt));
      expect(prompt).not.toContain("s3cret");
      expect(prompt).toContain(
        'resolveProvider failed (the operator can see why); they are no longer available. To get them back, find Customer \\"c123\\" again with the tool that returned it.',
      );
      expect(events.filter((e) => e.type === "ToolsRemoved")).toEqual([
        expect.objectContaining({ reason: "unrestored", cause: thrown }),
      ]);
      const [file] = readdirSync(dir).filter((f) => f.endsWith(".jsonl"));
      const log = readFileSync(path.join(dir, file!), "utf8");
      expect(readRunLog(log).records).toContainEqual(
        expect.objectContaining({ type: "removed", step: 0, reason: "unrestored" }),
      );
      expect(log).not.toContain("s3cret");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("continuing a paused run: the waiting call is not run, the model reads why, and the new message follows", async () => {
    const fake = new FakePromptRunner();
    fake
      .callTool("searchCustomer", { name: "John Smith" })
      .callTool("customer_c123_getAverageSpend")
      .respondWithText("Fine, I will not look.");
    const runner = fake
      .withTools(new CustomerSearchTools())
      .withToolProviderDiscovery()
      .withApproval((c) => c.toolName.endsWith("getAverageSpend"));
    const paused = await runner.run("Find John's spend");
    expect(paused.status).toBe("awaiting-approval");
    const next = await runner.run("Never mind.", { continueFrom: paused.snapshot });
    expect(next.status).toBe("completed");
    const prompt = JSON.stringify(fake.modelCalls.at(-1)!.prompt);
    expect(prompt).toContain(
      "Not run: the conversation went on without a decision on this call (a new message came instead).",
    );
    expect(next.conversationHistory.at(-2)).toEqual({ role: "user", content: "Never mind." });
  });
});

describe("continueFrom with entity handles", () => {
  const HANDLE_KEY = "h".repeat(32);
  async function turnOne() {
    let handle = "";
    const fake = new FakePromptRunner();
    fake.callTool("searchCustomer", { name: "John Smith" }).respondWithText("Found him.");
    const runner = fake
      .withTools(new CustomerSearchTools())
      .withToolProviderDiscovery({ binding: "handles", handleKey: HANDLE_KEY })
      .withObserver((e) => {
        if (e.type === "ToolProviderDiscovered" && e.handle) handle = e.handle;
      });
    const run = await runner.run("Find John Smith");
    return { fake, runner, run, handle };
  }

  it("in this process: turn 2 calls the handle tool with turn 1's handle, bound to the same live customer", async () => {
    const { fake, runner, run, handle } = await turnOne();
    expect(handle).not.toBe("");
    fake.callTool("customer_getAverageSpend", { handle }).respondWithText("46.83 USD a month.");
    const turn2 = await runner.run("What does he spend?", { continueFrom: run.snapshot });
    expect(fake.callsAt(1)[0]).toMatchObject({
      resultText: '{"amount":46.83,"currency":"USD"}',
      isError: false,
    });
    expect(turn2.result).toBe("46.83 USD a month.");
  });

  it("restored elsewhere (JSON, fresh runner, same handle key): the handle is re-bound through resolveProvider", async () => {
    const { run, handle } = await turnOne();
    const fake = new FakePromptRunner();
    fake.callTool("customer_getAverageSpend", { handle }).respondWithText("46.83 USD a month.");
    await fake
      .withTools(new CustomerSearchTools())
      .withToolProviderDiscovery({ binding: "handles", handleKey: HANDLE_KEY })
      .run("What does he spend?", { continueFrom: asJson(run.snapshot), resolveProvider: resolveCustomer });
    expect(fake.callsAt(1)[0]).toMatchObject({
      resultText: '{"amount":46.83,"currency":"USD"}',
      isError: false,
    });
  });
});

let mock: OpenAiMock | undefined;
afterEach(async () => mock?.close());

const toolNamesOf = (body: Record<string, unknown>) =>
  ((body.tools as { function?: { name: string } }[] | undefined) ?? []).map((t) => t.function?.name);

describe("continueFrom through @ai-sdk/openai against the local Chat Completions mock", () => {
  it("three turns over the wire: turn 2 calls the tool found in turn 1 and sends no search; a restored turn 3 too", async () => {
    mock = await startOpenAiMock("chat", [
      { toolCalls: [{ name: "searchCustomer", input: { name: "John Smith" } }] },
      { text: "Found John Smith." },
      { toolCalls: [{ name: "customer_c123_getAverageSpend", input: {} }] },
      { text: "46.83 USD a month." },
      { toolCalls: [{ name: "customer_c123_recentOrders", input: { limit: 1 } }] },
      { text: "His latest order is o-1." },
    ]);
    const model = createOpenAI({ baseURL: mock.baseURL, apiKey: "test-key" }).chat("gpt-test");
    const runner = () =>
      new PromptRunner({ model, modelSettings: { maxRetries: 0 } })
        .withTools(new CustomerSearchTools())
        .withToolProviderDiscovery();
    const turn1 = await runner().run("Find John Smith");
    const turn2 = await runner().run("What does he spend?", { continueFrom: turn1.snapshot });
    expect(turn2.result).toBe("46.83 USD a month.");
    expect(toolNamesOf(mock.requests[2]!.body)).toContain("customer_c123_getAverageSpend");
    const turn2Request = JSON.stringify(mock.requests[3]!.body);
    expect(turn2Request).toContain('{\\"amount\\":46.83,\\"currency\\":\\"USD\\"}');
    // In another process: the stored JSON and a fresh runner, the provider found again by id.
    const turn3 = await runner().run("And his latest order?", {
      continueFrom: asJson(turn2.snapshot),
      resolveProvider: resolveCustomer,
    });
    expect(turn3.result).toBe("His latest order is o-1.");
    expect(toolNamesOf(mock.requests[4]!.body)).toContain("customer_c123_recentOrders");
    const messages = (mock.requests[5]!.body.messages as { role: string; content: unknown }[]).map(
      (m) => m.role,
    );
    expect(messages).toEqual([
      "user",
      "assistant",
      "tool",
      "assistant",
      "user",
      "assistant",
      "tool",
      "assistant",
      "user",
      "assistant",
      "tool",
    ]);
    const searches = mock.requests.flatMap((r) =>
      ((r.body.messages as { tool_calls?: { function: { name: string } }[] }[]) ?? []).flatMap((m) =>
        (m.tool_calls ?? []).map((c) => c.function.name),
      ),
    );
    expect(new Set(searches)).toEqual(
      new Set(["searchCustomer", "customer_c123_getAverageSpend", "customer_c123_recentOrders"]),
    );
    expect(searches.filter((name) => name === "searchCustomer").length).toBe(
      // the first search, echoed in the history of every later request: never a second call
      mock.requests.length - 1,
    );
  });
});
