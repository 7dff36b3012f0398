// One Codex thread in one app-server process (JSON-RPC over stdio): its start with the run's tools, each
// turn with the tool calls Codex asks us to run in between, its token totals, and its close.
import type { ChildProcessWithoutNullStreams } from "node:child_process";
import type { Conversation, ConversationSetup, ConversationTurn } from "../loop/ports/conversation-port.js";
import { UnansweredCalls } from "../loop/ports/unanswered-calls.js";
import { emptyUsage, type TokenUsage } from "../events/token-usage.js";
import type { AnyTool } from "../tools/tool.js";
import { codexContentItems } from "./codex-content-items.js";
import { buildDynamicTools, type OpenAiFunctionTool } from "./dynamic-tools.js";
import { CodexAppServerError, JsonRpcConnection } from "./json-rpc-connection.js";
import type { CodexAppServerOptions } from "./codex-options.js";

type ToolCallParams = { threadId: string; turnId: string; callId: string; tool: string; arguments: unknown };
type TurnInfo = {
  id: string;
  status: string;
  error?: { message?: string } | null;
  items?: { type: string; text?: string }[];
};

/** One thread in one app-server process. */
export class CodexConversation implements Conversation {
  private readonly rpc: JsonRpcConnection;
  private threadId = "";
  private readonly requestTimeoutMs: number;
  /** The thread's token totals, from `thread/tokenUsage/updated`. */
  private threadUsage: TokenUsage = emptyUsage();
  /** The model the thread runs on, as `thread/start` names it (the configured one, or Codex's default). */
  private model: string | undefined;
  /** Codex's calls the run has not answered yet, for a turn that runs out of time to name. */
  private readonly unanswered = new UnansweredCalls();

  constructor(
    private readonly child: ChildProcessWithoutNullStreams,
    private readonly setup: ConversationSetup,
    private readonly options: CodexAppServerOptions,
  ) {
    this.rpc = new JsonRpcConnection(child);
    this.requestTimeoutMs = options.requestTimeoutMs ?? 30_000;
  }

  async start(): Promise<void> {
    await this.rpc.request(
      "initialize",
      {
        clientInfo: { name: "entity-tools", title: null, version: "1" },
        capabilities: { experimentalApi: true },
      },
      this.requestTimeoutMs,
    );
    this.rpc.notify("initialized");
    const dynamicTools = buildDynamicTools(this.setup.tools.map(asOpenAiTool), this.options.toolChoice);
    const started = (await this.rpc.request(
      "thread/start",
      {
        cwd: this.options.cwd ?? process.cwd(),
        ...(this.options.model ? { model: this.options.model } : {}),
        ...(this.setup.system ? { developerInstructions: this.setup.system } : {}),
        dynamicTools,
      },
      this.requestTimeoutMs,
    )) as { thread: { id: string }; model?: unknown };
    this.threadId = started.thread.id;
    this.model = typeof started.model === "string" ? started.model : this.options.model;
  }

  send(text: string): Promise<ConversationTurn> {
    return new Promise<ConversationTurn>((resolve, reject) => {
      let turnId: string | undefined;
      let agentText = "";
      let stopForTools = false;
      const usageBefore = this.threadUsage;
      let settled = false;
      const finish = (outcome: { turn?: ConversationTurn; error?: unknown }) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        unsubscribe();
        this.setup.signal?.removeEventListener("abort", onAbort);
        this.rpc.onRequest = unexpectedRequest;
        if (outcome.error !== undefined) reject(outcome.error);
        else resolve(outcome.turn!);
      };
      const interrupt = () => {
        if (turnId)
          void this.rpc
            .request("turn/interrupt", { threadId: this.threadId, turnId }, this.requestTimeoutMs)
            .catch(() => {});
      };
      const timeoutMs = this.options.turnTimeoutMs ?? 600_000;
      const timer = setTimeout(() => {
        interrupt();
        finish({
          error: new CodexAppServerError(
            `the Codex turn did not complete within ${timeoutMs} ms${this.unanswered.waitedOn() ?? ""}`,
            this.rpc.stderrTail,
          ),
        });
      }, timeoutMs);
      const onAbort = () => {
        interrupt();
        finish({ error: this.setup.signal?.reason ?? new Error("aborted") });
      };
      this.setup.signal?.addEventListener("abort", onAbort, { once: true });

      this.rpc.onRequest = async (method, params) => {
        if (method !== "item/tool/call") throw new Error(`entity-tools does not handle ${method}`);
        const call = params as ToolCallParams;
        try {
          const result = await this.unanswered.answer(call.tool, () =>
            this.setup.callTool({ toolCallId: call.callId, toolName: call.tool, input: call.arguments }),
          );
          if (result.stopTurn) {
            stopForTools = true;
            interrupt();
          }
          const contentItems = result.parts
            ? codexContentItems(result.parts)
            : [{ type: "inputText", text: result.text }];
          return { contentItems, success: !result.isError };
        } catch (error) {
          // The run cannot go on (a limit, cancellation, a failing strategy): stop the turn and report it.
          interrupt();
          finish({ error });
          return { contentItems: [{ type: "inputText", text: "The run was stopped." }], success: false };
        }
      };
      const unsubscribe = this.rpc.onNotification((method, params) => {
        if (method === "$exit") return finish({ error: params });
        const p = params as { threadId?: string; item?: { type: string; text?: string }; turn?: TurnInfo };
        if (p.threadId !== undefined && p.threadId !== this.threadId) return;
        if (method === "item/completed" && p.item?.type === "agentMessage")
          agentText = p.item.text ?? agentText;
        if (method === "thread/tokenUsage/updated") this.threadUsage = readUsage(params) ?? this.threadUsage;
        if (method === "turn/completed" && p.turn) {
          if (p.turn.status === "failed") {
            return finish({
              error: new CodexAppServerError(
                `the Codex turn failed: ${p.turn.error?.message ?? "no reason given"}`,
                this.rpc.stderrTail,
              ),
            });
          }
          if (p.turn.status === "interrupted" && !stopForTools) {
            return finish({
              error: new CodexAppServerError("the Codex turn was interrupted", this.rpc.stderrTail),
            });
          }
          const usage = {
            inputTokens: this.threadUsage.inputTokens - usageBefore.inputTokens,
            outputTokens: this.threadUsage.outputTokens - usageBefore.outputTokens,
            cachedInputTokens: this.threadUsage.cachedInputTokens - usageBefore.cachedInputTokens,
            reasoningTokens: this.threadUsage.reasoningTokens - usageBefore.reasoningTokens,
          };
          const model = this.model === undefined ? {} : { modelId: this.model };
          finish({ turn: { text: agentText, stopped: stopForTools, usage, ...model } });
        }
      });
      this.rpc
        .request(
          "turn/start",
          { threadId: this.threadId, input: [{ type: "text", text, text_elements: [] }] },
          this.requestTimeoutMs,
        )
        .then((started) => (turnId = (started as { turn: { id: string } }).turn.id))
        .catch((error: unknown) => finish({ error }));
    });
  }

  async close(): Promise<void> {
    // Never started, or already gone: nothing to stop.
    if (this.child.pid === undefined || this.child.exitCode !== null || this.child.signalCode !== null)
      return;
    const exited = new Promise<void>((resolve) => this.child.once("exit", () => resolve()));
    this.child.stdin.end();
    this.child.kill("SIGTERM");
    const timer = setTimeout(() => this.child.kill("SIGKILL"), 2_000);
    await exited;
    clearTimeout(timer);
  }
}

const unexpectedRequest = (method: string) =>
  Promise.reject(new Error(`entity-tools does not handle ${method} outside a turn`));

function asOpenAiTool(tool: AnyTool): OpenAiFunctionTool {
  return {
    type: "function",
    function: { name: tool.name, description: tool.description, parameters: tool.inputSchema },
  };
}

/** The thread's totals from a `thread/tokenUsage/updated` notification, if it has them. */
function readUsage(params: unknown): TokenUsage | undefined {
  type CodexTotals = Partial<
    Record<"inputTokens" | "outputTokens" | "cachedInputTokens" | "reasoningOutputTokens", number>
  >;
  const total = (params as { tokenUsage?: { total?: CodexTotals } }).tokenUsage?.total;
  if (typeof total?.inputTokens !== "number" || typeof total.outputTokens !== "number") return undefined;
  return {
    inputTokens: total.inputTokens,
    outputTokens: total.outputTokens,
    cachedInputTokens: total.cachedInputTokens ?? 0,
    reasoningTokens: total.reasoningOutputTokens ?? 0,
  };
}
