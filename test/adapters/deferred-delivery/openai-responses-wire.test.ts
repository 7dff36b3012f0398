// Deferred delivery through the real @ai-sdk/openai Responses provider against the local Responses mock: what the
// request bodies carry, step after step, and what ran.
import "../../fixtures/register.js";
import { createOpenAI } from "@ai-sdk/openai";
import { afterEach, describe, expect, it } from "vitest";
import { PromptRunner, type ToolLoopEvent } from "entity-tools";
import { Account, Bank, ran } from "../../fixtures/bank.js";
import type { MockReply } from "entity-tools/testing";
import { startOpenAiMock, type OpenAiMock } from "../../support/openai-mocks.js";
import { expectAppendOnly } from "./append-only.js";

let mock: OpenAiMock | undefined;
afterEach(async () => mock?.close());

async function responsesModel(replies: readonly MockReply[]) {
  mock = await startOpenAiMock("responses", replies);
  return createOpenAI({ baseURL: mock.baseURL, apiKey: "test-key" }).responses("gpt-test");
}

type Item = Record<string, unknown>;
const input = (n: number) => mock!.requests[n]!.body.input as Item[];

describe("deferred delivery on OpenAI Responses", () => {
  it("declares one client tool search and delivers each discovery as its output, the tools unchanged", async () => {
    ran.length = 0;
    const events: ToolLoopEvent[] = [];
    const model = await responsesModel([
      { toolCalls: [{ name: "findAccounts", input: { owner: "Bob" } }] },
      { toolCalls: [{ name: "account_2_getBalance", input: {} }] },
      { toolCalls: [{ name: "findAccounts", input: { owner: "Ann" } }] },
      { toolCalls: [{ name: "account_1_getBalance", input: {} }] },
      { text: "Bob has 50, Ann 100." },
    ]);
    const run = await new PromptRunner({ model, modelSettings: { maxRetries: 0 } })
      .withTools(new Bank())
      .withSystemPrompt("You answer questions about bank accounts.")
      .withToolProviderDiscovery({ delivery: "deferred" })
      .withObserver((e) => events.push(e))
      .run("What do Bob and Ann have?");

    expect(run.result).toBe("Bob has 50, Ann 100.");
    expect(ran).toEqual(["getBalance 2", "getBalance 1"]);
    const requests = mock!.requests;
    expect(requests).toHaveLength(5);
    const tools = requests.map((r) => JSON.stringify(r.body.tools));
    expect(new Set(tools).size).toBe(1);
    expect((requests[0]!.body.tools as readonly Item[]).map((t) => t.name ?? t.type)).toEqual([
      "findAccounts",
      "byOwner",
      "notes",
      "tool_search",
    ]);
    expect(requests[0]!.body.tools).toContainEqual(
      expect.objectContaining({ type: "tool_search", execution: "client" }),
    );
    expectAppendOnly(requests.map((r) => r.body.input as Item[]));

    // The discovering call's output, then a completed client tool search that loads the entity's namespace.
    expect(input(1).slice(-3)).toEqual([
      expect.objectContaining({ type: "function_call_output", call_id: "call_1_0" }),
      {
        type: "tool_search_call",
        id: "entity_tools_1",
        execution: "client",
        call_id: "entity_tools_1",
        status: "completed",
        arguments: { query: "account_2_getBalance account_2_withdraw" },
      },
      {
        type: "tool_search_output",
        execution: "client",
        call_id: "entity_tools_1",
        status: "completed",
        tools: [
          {
            type: "namespace",
            name: "account_2",
            description: "The tools of Account 2",
            tools: [
              {
                type: "function",
                name: "account_2_getBalance",
                description: "Get this account's balance",
                parameters: expect.objectContaining({ type: "object" }) as unknown,
                defer_loading: true,
              },
              expect.objectContaining({ name: "account_2_withdraw", defer_loading: true }),
            ],
          },
        ],
      },
    ]);
    // The model's call into the namespace goes back to it as it came.
    expect(input(2)).toContainEqual(
      expect.objectContaining({
        type: "function_call",
        name: "account_2_getBalance",
        namespace: "account_2",
      }),
    );
    const second = input(3).find((i) => i.type === "tool_search_output" && i.call_id === "entity_tools_2");
    expect((second!.tools as Item[]).map((t) => t.name)).toEqual([
      "account_1",
      expect.stringMatching(/^account_1_/),
    ]);

    expect(events.filter((e) => e.type === "ToolProviderDiscovered").map((e) => e.delivery)).toEqual([
      "deferred",
      "deferred",
      "deferred",
    ]);
    expect(events.filter((e) => e.type === "ModelWarning")).toEqual([]);
  });

  it("over chat completions (no deferred form) offers the tools inline and says so once", async () => {
    ran.length = 0;
    mock = await startOpenAiMock("chat", [
      { toolCalls: [{ name: "findAccounts", input: { owner: "Bob" } }] },
      { toolCalls: [{ name: "account_2_getBalance", input: {} }] },
      { text: "Bob has 50." },
    ]);
    const model = createOpenAI({ baseURL: mock.baseURL, apiKey: "test-key" }).chat("gpt-test");
    const events: ToolLoopEvent[] = [];
    const run = await new PromptRunner({ model, modelSettings: { maxRetries: 0 } })
      .withTools(new Bank())
      .withToolProviderDiscovery({ delivery: "deferred" })
      .withObserver((e) => events.push(e))
      .run("What does Bob have?");

    expect(run.result).toBe("Bob has 50.");
    expect(ran).toEqual(["getBalance 2"]);
    const names = (n: number) =>
      (mock!.requests[n]!.body.tools as readonly { function: { name: string } }[]).map(
        (t) => t.function.name,
      );
    expect(names(0)).toEqual(["findAccounts", "byOwner", "notes"]);
    expect(names(1)).toEqual([
      "findAccounts",
      "byOwner",
      "notes",
      "account_2_getBalance",
      "account_2_withdraw",
    ]);
    const warnings = events.filter((e) => e.type === "ModelWarning");
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.message).toContain("openai.chat");
    expect(warnings[0]!.message).toContain("inline");
  });

  it("with handles, delivery changes nothing: no tool search tool, the handle tools listed", async () => {
    const model = await responsesModel([{ text: "ok" }]);
    await new PromptRunner({ model, modelSettings: { maxRetries: 0 } })
      .withTools(new Bank())
      .withToolProviderDiscovery({ binding: "handles", classes: [Account], delivery: "deferred" })
      .run("?");

    const tools = (mock!.requests[0]!.body.tools as readonly Item[]).map((t) => t.name ?? t.type);
    expect(tools).toEqual(["findAccounts", "byOwner", "notes", "account_getBalance", "account_withdraw"]);
  });
});
