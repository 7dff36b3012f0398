// Deferred delivery through the real @ai-sdk/anthropic provider against a local Messages API mock: what the
// request bodies carry, step after step, and what ran.
import "../../fixtures/register.js";
import { createAnthropic } from "@ai-sdk/anthropic";
import { afterEach, describe, expect, it } from "vitest";
import { PromptRunner, type ToolLoopEvent } from "entity-tools";
import {
  startAnthropicMessagesMock,
  type AnthropicMessagesMock,
  type MockReply,
  type MessagesRequest,
} from "entity-tools/testing";
import { Bank, ran } from "../../fixtures/bank.js";
import { expectAppendOnly } from "./append-only.js";

let mock: AnthropicMessagesMock | undefined;
afterEach(async () => mock?.close());

/** The mock answers the n-th request with the n-th reply. */
async function scripted(replies: readonly MockReply[]) {
  mock = await startAnthropicMessagesMock(
    (request) => replies[mock!.requests.indexOf(request)] ?? { text: "?" },
  );
  const anthropic = createAnthropic({ baseURL: `${mock.baseURL}/v1`, apiKey: "test-key" });
  return anthropic("claude-sonnet-4-5");
}

const body = (r: MessagesRequest) => r.body as unknown as Record<string, unknown>;
const systemMessages = (r: MessagesRequest) => r.body.messages.filter((m) => m.role === "system");

describe("deferred delivery on Anthropic Messages", () => {
  it("keeps the tools, the system prompt and every earlier message byte-identical while tools are discovered", async () => {
    ran.length = 0;
    const events: ToolLoopEvent[] = [];
    const model = await scripted([
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
    expect(new Set(requests.map((r) => JSON.stringify(r.body.tools))).size).toBe(1);
    expect(requests[0]!.offeredTools).toEqual(["findAccounts", "byOwner", "notes"]);
    expect(new Set(requests.map((r) => JSON.stringify(body(r).system))).size).toBe(1);
    expectAppendOnly(requests.map((r) => r.body.messages));

    // Each discovery: one mid-conversation system message adding the tools by value, after the results.
    expect(systemMessages(requests[0]!)).toEqual([]);
    const [first] = systemMessages(requests[1]!);
    expect(first).toEqual({
      role: "system",
      content: [
        {
          type: "tool_addition",
          tool: {
            type: "tool_definition",
            definition: {
              name: "account_2_getBalance",
              description: "Get this account's balance",
              input_schema: expect.objectContaining({ type: "object" }) as unknown,
            },
          },
        },
        {
          type: "tool_addition",
          tool: {
            type: "tool_definition",
            definition: expect.objectContaining({ name: "account_2_withdraw" }) as unknown,
          },
        },
      ],
    });
    expect(requests[1]!.body.messages.at(-1)).toBe(first);
    const added = systemMessages(requests[3]!).flatMap(
      (m) => m.content as { tool: { definition: { name: string } } }[],
    );
    expect(added.map((c) => c.tool.definition.name)).toEqual([
      "account_2_getBalance",
      "account_2_withdraw",
      "account_1_getBalance",
      "account_1_withdraw",
      expect.stringMatching(/^account_1_.*getBalance/),
      expect.stringMatching(/^account_1_.*withdraw/),
    ]);
    expect(requests[1]!.betas).toEqual(expect.arrayContaining(["inline-tools-2026-09-15"]));

    const discovered = events.filter((e) => e.type === "ToolProviderDiscovered");
    expect(discovered.map((e) => e.delivery)).toEqual(["deferred", "deferred", "deferred"]);
    expect(events.filter((e) => e.type === "ModelWarning")).toEqual([]);
  });

  it("streamed, delivers the same way: the tool list unchanged, each request the last one extended", async () => {
    ran.length = 0;
    const model = await scripted([
      { toolCalls: [{ name: "findAccounts", input: { owner: "Bob" } }] },
      { toolCalls: [{ name: "account_2_getBalance", input: {} }] },
      { text: "Bob has 50." },
    ]);
    const stream = new PromptRunner({ model, modelSettings: { maxRetries: 0 } })
      .withTools(new Bank())
      .withToolProviderDiscovery({ delivery: "deferred" })
      .stream("What does Bob have?");
    const run = await stream.result;

    expect(run.result).toBe("Bob has 50.");
    expect(ran).toEqual(["getBalance 2"]);
    const requests = mock!.requests;
    expect(requests.map((r) => r.body.stream)).toEqual([true, true, true]);
    expect(new Set(requests.map((r) => JSON.stringify(r.body.tools))).size).toBe(1);
    expectAppendOnly(requests.map((r) => r.body.messages));
    expect(JSON.stringify(systemMessages(requests[1]!))).toContain('"name":"account_2_getBalance"');
  });
});
