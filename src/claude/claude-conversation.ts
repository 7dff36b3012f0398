import type { Conversation, ConversationSetup, ConversationTurn } from "../loop/ports/conversation-port.js";
import { UnansweredCalls } from "../loop/ports/unanswered-calls.js";
import { ClaudeAgentSdkError } from "./claude-agent-sdk-error.js";
import { ClaudeProcess } from "./claude-process.js";
import {
  initModelOf,
  readTurnEnd,
  userMessage,
  type ClaudeAgentSdk,
  type Options,
  type Query,
  type SDKUserMessage,
} from "./claude-sdk.js";
import { ClaudeToolServer, type ServedCall, type ServedResult } from "./claude-tool-server.js";
import { ClaudeTurnUsage } from "./claude-turn-usage.js";

const STDERR_TAIL = 4_000;
const STOPPED_TEXT = "The run was stopped.";

/** The turn in progress: how to settle `send`, and why it is being stopped, once it is. */
interface OpenTurn {
  resolve(turn: ConversationTurn): void;
  reject(error: unknown): void;
  stopping: boolean;
  toolsNotOffered?: { toolNames: string[]; reason: string };
}

/** What a conversation needs besides its setup. */
export interface ClaudeConversationOptions {
  readonly serverName: string;
  /** Longest wait for Claude Code to list changed tools again (dynamic mode), in milliseconds. */
  readonly relistTimeoutMs: number;
  /** Longest wait for one turn, in milliseconds. */
  readonly turnTimeoutMs: number;
  /** The SDK's options, with everything but the in-process server, the prompt and the abort already set. */
  readonly queryOptions: Options;
}

/**
 * One Claude Code process (one `query()` in streaming-input mode): each `send` is a user turn, and the
 * calls Claude Code makes in between go through `setup.callTool`. A result that asks to stop the turn (a
 * restart, an approval pause) interrupts it; a run failure (a limit, a failing strategy) rejects the turn
 * at once; `close` (and the run's signal) ends the process.
 */
export class ClaudeConversation implements Conversation {
  private readonly input = new UserTurns();
  private readonly abort = new AbortController();
  private readonly server: ClaudeToolServer;
  private readonly query: Query;
  private readonly process: ClaudeProcess;
  private turn: OpenTurn | undefined;
  /** Why the process can take no more turns, once it cannot. */
  private ended: unknown;
  private stderr = "";
  /** The model the agent loop runs on: the one configured until Claude Code's `init` message names it. */
  private model: string | undefined;
  /** Each turn's tokens per model, from the process's running totals. */
  private readonly spent = new ClaudeTurnUsage();
  /** Claude Code's calls the run has not answered yet, for a turn that runs out of time to name. */
  private readonly unanswered = new UnansweredCalls();

  constructor(
    sdk: ClaudeAgentSdk,
    private readonly setup: ConversationSetup,
    private readonly options: ClaudeConversationOptions,
  ) {
    this.server = new ClaudeToolServer(sdk, options.serverName, setup.tools, (call) => this.runCall(call));
    const queryOptions = options.queryOptions;
    this.model = queryOptions.model;
    const onStderr = (data: string) => {
      this.stderr = (this.stderr + data).slice(-STDERR_TAIL);
      queryOptions.stderr?.(data);
    };
    this.process = new ClaudeProcess(onStderr, queryOptions.spawnClaudeCodeProcess);
    this.query = sdk.query({
      prompt: this.input,
      options: {
        ...queryOptions,
        mcpServers: { [options.serverName]: this.server.config },
        systemPrompt: setup.system ?? "",
        ...(setup.outputSchema
          ? { outputFormat: { type: "json_schema", schema: setup.outputSchema as Record<string, unknown> } }
          : {}),
        abortController: this.abort,
        spawnClaudeCodeProcess: this.process.spawn, // which passes Claude Code's stderr to `onStderr`
      },
    });
    setup.signal?.addEventListener("abort", this.onAbort, { once: true });
    void this.read();
  }

  send(text: string): Promise<ConversationTurn> {
    if (this.ended !== undefined) return Promise.reject(this.ended);
    return new Promise<ConversationTurn>((resolve, reject) => {
      const limit = this.options.turnTimeoutMs;
      const timer = setTimeout(() => {
        if (this.turn !== turn) return;
        this.turn = undefined;
        void this.query.interrupt().catch(() => {});
        const waitedOn =
          this.unanswered.waitedOn() ??
          ". Check that Claude Code reaches its model (ANTHROPIC_BASE_URL, ANTHROPIC_API_KEY), or raise turnTimeoutMs.";
        reject(
          new ClaudeAgentSdkError(
            `The Claude Code turn did not complete within ${limit} ms${waitedOn}`,
            this.stderr,
          ),
        );
      }, limit);
      const turn: OpenTurn = {
        resolve: (value) => {
          clearTimeout(timer);
          resolve(value);
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
        stopping: false,
      };
      this.turn = turn;
      this.input.push(userMessage(text));
    });
  }

  async close(): Promise<void> {
    this.setup.signal?.removeEventListener("abort", this.onAbort);
    this.input.end();
    this.end(new ClaudeAgentSdkError("The Claude Code process was closed."));
    this.query.close(); // closes stdin; the SDK ends the process if it does not exit by itself
    await this.process.exited(); // the run ends once Claude Code no longer writes in its folders
  }

  private readonly onAbort = () => {
    this.end(this.setup.signal?.reason ?? new Error("aborted"));
    this.abort.abort(this.setup.signal?.reason);
  };

  /** Reads the SDK's messages for the life of the process; a `result` message ends the open turn. */
  private async read(): Promise<void> {
    try {
      for await (const message of this.query) {
        this.model = initModelOf(message) ?? this.model;
        const end = readTurnEnd(message);
        const turn = this.turn;
        if (!end || !turn) continue;
        this.turn = undefined;
        // Per model, since the last turn's result: a result no turn waited for adds to the next turn's.
        const priced = this.spent.of(end, this.model);
        if (turn.stopping) {
          turn.resolve({ text: "", stopped: true, ...priced, toolsNotOffered: turn.toolsNotOffered });
        } else if (end.ok) {
          turn.resolve({ text: end.text, stopped: false, ...priced });
        } else {
          turn.reject(new ClaudeAgentSdkError(`The Claude Code turn failed (${end.reason}).`, this.stderr));
        }
      }
      this.end(
        new ClaudeAgentSdkError("The Claude Code process ended before the turn completed.", this.stderr),
      );
    } catch (error) {
      this.end(
        ClaudeAgentSdkError.isInstance(error)
          ? error
          : new ClaudeAgentSdkError(
              `Claude Code failed: ${error instanceof Error ? error.message : String(error)}`,
              this.stderr,
              { cause: error },
            ),
      );
    }
  }

  /** One call Claude Code asked for, run by the run session; tool changes and stops applied. */
  private async runCall(call: ServedCall): Promise<ServedResult> {
    const turn = this.turn;
    if (!turn || turn.stopping) return { text: STOPPED_TEXT, isError: true };
    try {
      const result = await this.unanswered.answer(call.toolName, () => this.setup.callTool(call));
      if (result.tools) {
        const offered = await this.server.offer(result.tools, this.options.relistTimeoutMs);
        if (!offered) {
          turn.toolsNotOffered = {
            toolNames: result.tools.map((t) => t.name),
            reason: `Claude Code did not list the changed tools again within ${this.options.relistTimeoutMs} ms`,
          };
          await this.stop(turn);
        }
      }
      if (result.stopTurn) await this.stop(turn);
      return { text: result.text, ...(result.parts ? { parts: result.parts } : {}), isError: result.isError };
    } catch (error) {
      // The run cannot go on (a limit, cancellation, a failing strategy): it ends with this error now.
      this.turn = undefined;
      turn.reject(error);
      void this.stop(turn); // the driver ends the process next
      return { text: STOPPED_TEXT, isError: true };
    }
  }

  /**
   * Interrupts the turn; its `result` message then ends it as stopped. Resolves once Claude Code has taken
   * the interrupt, so the call's result, returned after it, cannot start another model request first.
   */
  private async stop(turn: OpenTurn): Promise<void> {
    if (turn.stopping) return;
    turn.stopping = true;
    await this.query.interrupt().catch(() => {});
  }

  /** No more turns: the open one fails with `reason`. */
  private end(reason: unknown): void {
    if (this.ended === undefined) this.ended = reason;
    const turn = this.turn;
    this.turn = undefined;
    turn?.reject(this.ended);
  }
}

/** The user turns of a streaming-input `query()`: an async iterable that waits for the next `send`. */
class UserTurns implements AsyncIterable<SDKUserMessage> {
  private readonly queue: SDKUserMessage[] = [];
  private wake: (() => void) | undefined;
  private done = false;

  push(message: SDKUserMessage): void {
    this.queue.push(message);
    this.wake?.();
  }

  end(): void {
    this.done = true;
    this.wake?.();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<SDKUserMessage> {
    for (;;) {
      const next = this.queue.shift();
      if (next) yield next;
      else if (this.done) return;
      else await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }
}
