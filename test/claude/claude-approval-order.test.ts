// The call pipeline on the Claude backend, with the SDK replaced by a stand-in that makes one tool call
// through the in-process server per user turn: approval comes after validation, and a bad
// call_discovered_tool call is refused with the one rule, as on every driver.
import { CallToolRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it, vi } from "vitest";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { defineTool, PromptRunner, readRunLog, runView } from "entity-tools";
import { ClaudeAgentSdkAdapter } from "entity-tools/claude";
import { tempDir } from "../support/temp-dir.js";

/** What Claude Code's model asks for (one call per turn), and what the server answered it. */
const script = vi.hoisted(() => ({
  call: { name: "", arguments: {} as Record<string, unknown> },
  answers: [] as unknown[],
  /** The result message's `usage` (per turn, as Claude Code reports it). */
  usage: { input_tokens: 1, output_tokens: 1 } as Record<string, number>,
}));

vi.mock("@anthropic-ai/claude-agent-sdk", () => ({
  createSdkMcpServer: ({ name }: { name: string }) => {
    const handlers = new Map<unknown, (request: unknown, extra: unknown) => unknown>();
    const server = {
      registerCapabilities: () => {},
      setRequestHandler: (schema: unknown, handler: (request: unknown, extra: unknown) => unknown) =>
        handlers.set(schema, handler),
      sendToolListChanged: async () => {},
    };
    return { type: "sdk", name, instance: { server, handlers } };
  },
  query: ({
    prompt,
    options,
  }: {
    prompt: AsyncIterable<unknown>;
    options: { mcpServers: Record<string, { instance: { handlers: Map<unknown, Function> } }> };
  }) => {
    const handlers = Object.values(options.mcpServers)[0]!.instance.handlers;
    async function* messages() {
      for await (const _turn of prompt) {
        // Claude Code names its agent loop's model in the init message that starts a turn.
        yield { type: "system", subtype: "init", model: "claude-sonnet-4-5" };
        const callTool = handlers.get(CallToolRequestSchema)!;
        script.answers.push(
          await callTool(
            { params: { ...script.call, _meta: { "claudecode/toolUseId": "toolu_1" } } },
            { requestId: 1 },
          ),
        );
        yield {
          type: "result",
          subtype: "success",
          result: "done",
          usage: script.usage,
        };
      }
    }
    const stream = messages();
    return Object.assign(stream, { interrupt: async () => {}, close: () => void stream.return(undefined) });
  },
}));

describe("the call pipeline on the Claude backend", () => {
  it("a needsApproval tool called with invalid input gets Invalid arguments; the run does not pause", async () => {
    let refunds = 0;
    const refund = defineTool<{ amount: number }>({
      name: "refund",
      description: "Refund",
      inputSchema: { type: "object", properties: { amount: { type: "number" } }, required: ["amount"] },
      needsApproval: true,
      execute: () => `refund #${++refunds}`,
    });
    script.call = { name: "refund", arguments: { amount: "everything" } };
    const run = await new PromptRunner({ adapter: new ClaudeAgentSdkAdapter() })
      .withTools(refund)
      .run("Refund it");
    expect([run.status, run.pendingApprovals, refunds]).toEqual(["completed", [], 0]);
    expect(script.answers).toEqual([
      {
        content: [{ type: "text", text: 'Invalid arguments for "refund": field "amount" must be number.' }],
        isError: true,
      },
    ]);
  });

  it("dispatch mode: a call_discovered_tool call with bad arguments is told what is wrong with them, as on the MCP server", async () => {
    script.answers = [];
    const runner = new PromptRunner({
      adapter: new ClaudeAgentSdkAdapter({ newTools: "dispatch" }),
    }).withTools(defineTool({ name: "search", description: "Search", execute: () => "found" }));
    for (const args of [{}, { tool_name: "call_discovered_tool" }, { tool_name: "search", arguments: 7 }]) {
      script.call = { name: "call_discovered_tool", arguments: args };
      expect((await runner.run("Search")).status).toBe("completed");
    }
    expect(script.answers).toEqual(
      [
        'missing required field "tool_name".',
        '"tool_name" names a discovered tool, not call_discovered_tool itself.',
        'field "arguments" must be object.',
      ].map((problem) => ({
        content: [{ type: "text", text: `Invalid arguments for "call_discovered_tool": ${problem}` }],
        isError: true,
      })),
    );
  });

  it("withPricing: a turn's tokens are priced as the init message's model on its last step, a turn stopped for approval too", async () => {
    script.usage = { input_tokens: 1000, cache_read_input_tokens: 200, output_tokens: 100 };
    const refund = defineTool<{ amount: number }>({
      name: "refund",
      description: "Refund",
      inputSchema: { type: "object", properties: { amount: { type: "number" } }, required: ["amount"] },
      needsApproval: true,
      execute: () => "refunded",
    });
    const dir = tempDir("claude-cost-");
    const runner = new PromptRunner({ adapter: new ClaudeAgentSdkAdapter() })
      .withTools(refund)
      .withPricing((modelId) =>
        modelId === "claude-sonnet-4-5"
          ? { input: 3, cachedInput: 0.3, output: 15 }
          : { input: 0, output: 0 },
      )
      .withRunLog(dir);
    const usage = { inputTokens: 1200, outputTokens: 100, cachedInputTokens: 200, reasoningTokens: 0 };
    const cost = (1000 * 3 + 200 * 0.3 + 100 * 15) / 1e6;

    // Completed: step 1 is the call, step 2 the final message that ends the turn and carries its tokens.
    script.call = { name: "refund", arguments: { amount: "everything" } };
    const done = await runner.run("Refund it");
    expect(done.usage).toEqual(usage);
    expect(done.cost?.perStep.map((s) => [s.iteration, s.modelId, s.cost])).toEqual([
      [1, undefined, 0],
      [2, "claude-sonnet-4-5", cost],
    ]);
    expect(done.cost?.total).toBeCloseTo(cost, 12);

    // Paused: the turn stops at its only step, whose call came before the turn's tokens: one entry for it.
    script.call = { name: "refund", arguments: { amount: 5 } };
    const paused = await runner.run("Refund it");
    expect(paused.status).toBe("awaiting-approval");
    expect(paused.usage).toEqual(usage);
    expect(paused.cost?.perStep).toEqual([{ iteration: 1, modelId: "claude-sonnet-4-5", usage, cost }]);
    expect(paused.cost?.total).toBeCloseTo(cost, 12);
    // The run log's step shows the call and the turn's tokens and cost.
    const files = readdirSync(dir).filter((f) => f.endsWith(".jsonl"));
    const views = files.map((f) => runView(readRunLog(readFileSync(path.join(dir, f), "utf8"))));
    const pausedView = views.find((v) => v.end?.status === "awaiting-approval")!;
    expect(pausedView.steps.map((s) => s.response)).toEqual([
      expect.objectContaining({ modelId: "claude-sonnet-4-5", usage, cost, calls: [{ tool: "refund" }] }),
    ]);
    expect(pausedView.end).toMatchObject({ usage, cost });
  });
});
