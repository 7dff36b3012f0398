// The call pipeline on the Claude backend, with the SDK replaced by a stand-in that makes one tool call
// through the in-process server per user turn: approval comes after validation, and a bad
// call_discovered_tool call is refused with the one rule, as on every driver.
import { CallToolRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it, vi } from "vitest";
import { defineTool, PromptRunner } from "entity-tools";
import { ClaudeAgentSdkAdapter } from "entity-tools/claude";

/** What Claude Code's model asks for (one call per turn), and what the server answered it. */
const script = vi.hoisted(() => ({
  call: { name: "", arguments: {} as Record<string, unknown> },
  answers: [] as unknown[],
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
          usage: { input_tokens: 1, output_tokens: 1 },
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
});
