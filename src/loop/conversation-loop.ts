import type { ModelMessage } from "ai";
import type {
  Conversation,
  ConversationAdapter,
  ConversationToolResult,
} from "../adapters/conversation-adapter.js";
import type { ModelToolCall } from "../adapters/model-adapter.js";
import type { JsonSchema } from "../schema/json-schema.js";
import { dispatcherTool, dispatchNotice, unwrapDispatch } from "./dispatcher-tool.js";
import { MaxIterationsExceededError, ToolLoopAbortedError } from "./errors.js";
import { FinalAnswerCheck, runError, startRun } from "./run-state.js";
import type { ToolLoopConfig, ToolLoopOutcome } from "./tool-loop.js";

/** The loop's settings, for a conversation-based backend. */
export type ConversationLoopConfig = Omit<ToolLoopConfig, "adapter"> & {
  readonly adapter: ConversationAdapter;
};

const MAX_TRANSCRIPT_RESULT = 2_000;

/**
 * The loop for backends that run the model themselves and ask us to run tools (the Codex app-server).
 * Every call goes through the same executor as the step loop. Counting: each tool call and each finished
 * turn is one iteration.
 *
 * When a call adds tools, the backend cannot take them into the running thread. In `restart` mode the
 * turn is stopped and a new conversation starts with the updated tool set and a transcript of the calls
 * so far, so nothing is done twice. In `dispatch` mode the thread goes on: the new tools are described in
 * the result and reached through `call_discovered_tool`.
 */
export async function runConversationLoop(
  config: ConversationLoopConfig,
  messages: readonly ModelMessage[],
  outputSchema?: JsonSchema,
): Promise<ToolLoopOutcome> {
  const { adapter, events } = config;
  const { history, registry, executor, system } = startRun(config, messages, outputSchema);
  const prompt = promptText(messages);
  const transcript: string[] = [];
  let iteration = 0;
  const answers = new FinalAnswerCheck(outputSchema, config.maxOutputRepairs, events);
  let offered = new Set<string>();
  let conversation: Conversation | undefined;

  const step = () => {
    if (iteration >= config.maxIterations) throw new MaxIterationsExceededError(config.maxIterations);
    iteration++;
  };

  const callTool = async (raw: ModelToolCall): Promise<ConversationToolResult> => {
    step();
    const call = unwrapDispatch(raw);
    history.push({
      role: "assistant",
      content: [
        { type: "tool-call", toolCallId: call.toolCallId, toolName: call.toolName, input: call.input },
      ],
    });
    const toolMessage: ModelMessage = { role: "tool", content: [] };
    history.push(toolMessage);
    const part = await executor.execute(call, iteration, history);
    toolMessage.content.push(part);
    const tooMany = executor.tooManyUnknownTools();
    if (tooMany) throw tooMany;
    const output = part.output;
    let text = output.type === "text" || output.type === "error-text" ? output.value : JSON.stringify(output);
    transcript.push(
      `- ${call.toolName}(${JSON.stringify(call.input)}) → ${text.slice(0, MAX_TRANSCRIPT_RESULT)}`,
    );
    // Tools the conversation was not opened with (or was told about, in dispatch mode).
    const fresh = registry.all().filter((t) => !offered.has(t.name));
    if (fresh.length > 0 && adapter.newTools === "dispatch") {
      text = `${text}\n\n${dispatchNotice(fresh)}`;
      for (const t of fresh) offered.add(t.name);
    }
    return {
      text,
      isError: output.type === "error-text",
      toolsChanged: fresh.length > 0 && adapter.newTools === "restart",
    };
  };

  try {
    let input = prompt;
    for (;;) {
      if (config.signal?.aborted) throw new ToolLoopAbortedError(config.signal.reason);
      if (!conversation) {
        const tools = adapter.newTools === "dispatch" ? [...registry.all(), dispatcherTool] : registry.all();
        offered = new Set(tools.map((t) => t.name));
        events.emit({ type: "ToolLoopIteration", iteration: iteration + 1, toolNames: [...offered] });
        conversation = await adapter.openConversation({ system, tools, callTool, signal: config.signal });
      }
      const turn = await conversation.send(input);
      if (turn.text) history.push({ role: "assistant", content: turn.text });
      if (turn.stoppedForNewTools) {
        await conversation.close();
        conversation = undefined;
        input = continuation(prompt, transcript, registry.names());
        history.push({ role: "user", content: input });
        continue;
      }
      step();
      events.emit({ type: "ModelResponded", iteration, text: turn.text, toolCalls: [] });
      const verdict = answers.judge(turn.text, iteration);
      if (verdict.ok) {
        return { answer: verdict.value, history, iterations: iteration, injectedTools: executor.injected };
      }
      input = verdict.repair;
      history.push({ role: "user", content: input });
    }
  } catch (error) {
    throw runError(error, history, iteration, config.signal);
  } finally {
    await conversation?.close();
  }
}

/** The user text of the prompt messages. */
function promptText(messages: readonly ModelMessage[]): string {
  return messages
    .filter((m) => m.role === "user")
    .map((m) =>
      typeof m.content === "string"
        ? m.content
        : m.content.map((p) => (p.type === "text" ? p.text : "")).join(""),
    )
    .join("\n\n");
}

/** The first message of a restarted conversation: the task, what was done, and what is now available. */
function continuation(prompt: string, transcript: readonly string[], toolNames: readonly string[]): string {
  return [
    prompt,
    "",
    "You already made these tool calls for this task (do not repeat them):",
    ...transcript,
    "",
    `Your tools now include: ${toolNames.join(", ")}. Continue the task.`,
  ].join("\n");
}
