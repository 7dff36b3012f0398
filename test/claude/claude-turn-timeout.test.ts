// turnTimeoutMs ending a Claude Code run while a tool runs: the run fails with the timeout, and the tool's
// context.signal is aborted, so its side effect can stop instead of completing after the run reported
// failure. Claude Code is a fake SDK here: its model calls one tool, then never ends the turn.
import { describe, expect, it } from "vitest";
import { defineTool, PromptRunner, type ConversationAdapter, type ConversationSetup } from "entity-tools";
import { ClaudeConversation } from "../../src/claude/claude-conversation.js";
import type { ClaudeAgentSdk } from "../../src/claude/claude-sdk.js";

type Handler = (request: unknown, extra: unknown) => Promise<unknown>;

/** A Claude Code whose model calls `toolName` at the first user turn and then never finishes the turn. */
function hangingClaudeCode(toolName: string): ClaudeAgentSdk {
  const handlers = new Map<string, Handler>();
  return {
    requests: { listTools: "list", callTool: "call" } as never,
    createSdkMcpServer: () =>
      ({
        instance: {
          server: {
            registerCapabilities: () => {},
            setRequestHandler: (schema: string, handler: Handler) => handlers.set(schema, handler),
            sendToolListChanged: async () => {},
          },
        },
      }) as never,
    query: ({ prompt }) => {
      let closed = false;
      // No message ever comes: the first user turn makes the model call the tool, and that is all.
      const messages = (async function* (): AsyncGenerator<never> {
        for await (const _turn of prompt) {
          void handlers.get("call")!({ params: { name: toolName, arguments: {} } }, { requestId: 1 });
          if (closed) return;
        }
        yield* [];
      })();
      return Object.assign(messages, {
        interrupt: async () => {},
        close: () => void (closed = true),
      }) as never;
    },
  };
}

describe("Claude: turnTimeoutMs while a tool runs", () => {
  it("the run fails with the timeout and the running tool's context.signal is aborted", async () => {
    let toolSignal: AbortSignal | undefined;
    const slow = defineTool({
      name: "slow",
      description: "Runs until told to stop",
      inputSchema: { type: "object", properties: {} },
      execute: (_input, context) =>
        new Promise<string>((resolve) => {
          toolSignal = context.signal;
          context.signal.addEventListener("abort", () => resolve("stopped"));
        }),
    });
    const adapter: ConversationAdapter = {
      supportsDynamicTools: true,
      newTools: "dynamic",
      openConversation: async (setup: ConversationSetup) =>
        new ClaudeConversation(hangingClaudeCode("slow"), setup, {
          serverName: "tools",
          relistTimeoutMs: 1_000,
          turnTimeoutMs: 500,
          queryOptions: {},
        }),
    };
    await expect(new PromptRunner({ adapter }).withTools(slow).run("go")).rejects.toThrow(
      "The Claude Code turn did not complete within 500 ms",
    );
    expect(toolSignal).toBeDefined();
    expect(toolSignal!.aborted).toBe(true);
  });
});
