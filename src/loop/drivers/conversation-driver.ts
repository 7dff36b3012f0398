import type { ModelMessage } from "ai";
import type {
  Conversation,
  ConversationAdapter,
  ConversationToolResult,
  ConversationTurn,
} from "../ports/conversation-port.js";
import { dispatcherTool, dispatchNotice, unwrapDispatch } from "./dispatcher-tool.js";
import { callBackend } from "./call-backend.js";
import { serializeToolResult } from "../../tools/serialize-result.js";
import { resultText } from "../results/result-text.js";
import { partsOfOutput } from "../results/content-output.js";
import type { ModelToolCall } from "../ports/model-port.js";
import type { StepListener } from "./step-driver.js";
import type { Run } from "../run/run.js";
import type { RunSession } from "../session/run-session.js";
import { laterStop, type RunEnd, type RunStop } from "../session/step-outcome.js";

/** How much of each result a new thread's transcript shows: the note of a longer one is the tool results' own. */
const MAX_TRANSCRIPT_RESULT = 2_000;

/**
 * The driver for conversation backends (the Codex app-server, Claude Code), which run the model loop
 * themselves and call us back for tools. Each call and each final message goes to the run session, like a
 * step backend's.
 *
 * When a call adds tools: in `dynamic` mode the result carries the new tool set and the backend offers it
 * in the running conversation. A backend with fixed tools cannot; in `restart` mode the turn is stopped
 * and a new conversation starts with the updated tool set and a transcript of the calls so far, so
 * nothing is done twice (a dynamic backend that could not offer the tools in time ends up here too). In
 * `dispatch` mode the thread goes on: the new tools are described in the result and reached through
 * `call_discovered_tool`.
 *
 * A streamed run hears each call (`listener`) as it arrives, before its result, and a turn's text whole
 * when the turn ends: the backend does not hand it over as it is written. A reader that is behind holds
 * the next call and the next turn back.
 */
export async function driveConversation(
  adapter: ConversationAdapter,
  session: RunSession,
  listener?: StepListener,
): Promise<RunEnd> {
  // Handles mode with its classes known up front offers every operation from the start: nothing is left
  // for a dispatcher to reach, so none is offered; a tool that still appears (a class not known up
  // front) restarts the thread once, as in restart mode.
  const { run } = session;
  const dispatching =
    adapter.newTools === "dispatch" && !run.tools().some((t) => t.handleTarget !== undefined);
  let offered = new Set<string>();
  let conversation: Conversation | undefined;
  let stop: RunStop | undefined;

  // Calls still running when a turn ends (a backend that runs a response's calls at once may end a turn it
  // stopped before all of them answered): the turn is handled once they ended, so a pause lists every call
  // they held and the history (the snapshot, a new thread's transcript) has every result.
  const running = new Set<Promise<unknown>>();
  const callTool = (raw: ModelToolCall): Promise<ConversationToolResult> => {
    const answer = answerCall(raw);
    const ended: Promise<unknown> = answer.then(
      () => running.delete(ended),
      () => running.delete(ended),
    );
    running.add(ended);
    return answer;
  };
  const answerCall = async (raw: ModelToolCall): Promise<ConversationToolResult> => {
    // A streamed run's reader that is behind holds the call back; calls run at once keep their order.
    if (listener?.ready) await listener.ready();
    session.beginIteration();
    // Where the dispatcher is offered, a call of it stands for the tool it names, or is refused as the MCP
    // server refuses it; elsewhere it is a call like any other (an unknown tool).
    const opened = dispatching ? unwrapDispatch(raw) : { call: raw };
    const call = "call" in opened ? opened.call : raw;
    session.recordResponse(
      {
        responseMessages: [
          {
            role: "assistant",
            content: [
              { type: "tool-call", toolCallId: call.toolCallId, toolName: call.toolName, input: call.input },
            ],
          },
        ],
        toolCalls: [call],
        text: "",
      },
      0,
      "with-turn",
    );
    void listener?.onModelPart?.({ type: "tool-call", call });
    const { next, results } =
      "problem" in opened
        ? session.refuseToolCall(call, opened.problem)
        : await session.handleToolCalls([call]);
    // Calls end in any order: restarts add up, and a pause wins over them whatever ended last (`laterStop`).
    stop = laterStop(stop, next);
    // A paused call has no result yet: Codex is told so, and its turn is stopped.
    const output = results[0]?.output ?? {
      type: "error-text" as const,
      value: "Waiting for a person's approval.",
    };
    let text = resultText(output);
    const parts = output.type === "content" ? partsOfOutput(output) : undefined;
    const now = run.tools();
    // Tools the conversation was not opened with (or was told about, in dispatch mode).
    const fresh = now.filter((t) => !offered.has(t.name));
    if (fresh.length > 0 && dispatching) {
      text = `${text}\n\n${dispatchNotice(fresh)}`;
      parts?.push({ type: "text", text: `\n\n${dispatchNotice(fresh)}` });
      for (const t of fresh) offered.add(t.name);
    }
    // In dynamic mode the conversation takes any change of the set: additions, removals, evictions.
    const changed = adapter.newTools === "dynamic" && (fresh.length > 0 || now.length !== offered.size);
    if (changed) offered = new Set(now.map((t) => t.name));
    return {
      text,
      ...(parts ? { parts } : {}),
      isError: output.type === "error-text",
      stopTurn: stop !== undefined || (fresh.length > 0 && adapter.newTools !== "dynamic" && !dispatching),
      ...(changed ? { tools: now } : {}),
    };
  };

  try {
    const start = await session.resumeStart();
    if (start.type !== "continue") return session.end(start);
    // Read after resumeStart: a continued conversation's new message is part of the task.
    const prompt = promptText(run.history);
    // A resumed run starts a new thread that carries what was done, as a restart does.
    let input = hasToolCalls(run.history)
      ? continuation(prompt, transcriptOf(run.history), run.toolNames())
      : prompt;
    for (;;) {
      if (!conversation) {
        await session.refreshSources();
        const tools = dispatching ? [...run.tools(), dispatcherTool] : run.tools();
        offered = new Set(tools.map((t) => t.name));
        const setup = {
          system: session.system,
          tools,
          callTool,
          signal: session.signal,
          outputSchema: session.outputSchema,
        };
        conversation = await callBackend(() => adapter.openConversation(setup), session.signal);
      }
      const current = conversation;
      if (listener?.ready) await listener.ready();
      const turn = await session.untilAborted(callBackend(() => current.send(input), session.signal));
      await session.untilAborted(Promise.all(running));
      // The backend counts tokens per turn: they are reported on the turn's last step, priced as its model.
      const spent = { usage: turn.usage, ...(turn.modelId === undefined ? {} : { modelId: turn.modelId }) };
      if (turn.text) void listener?.onModelPart?.({ type: "text-delta", text: turn.text });
      if (turn.stopped) {
        if (turn.text) run.append({ role: "assistant", content: turn.text });
        session.recordTurnTokens({ text: turn.text, ...spent });
        recordOtherModels(session, turn);
        if (stop) return session.end(stop);
        // Reported as decided, before the old thread is closed: a close that fails still leaves observers
        // the restart and why the thread was stopped.
        newThread(run, offered, turn.toolsNotOffered);
        const stopped = conversation;
        conversation = undefined;
        await stopped.close();
        input = continuation(prompt, transcriptOf(run.history), run.toolNames());
        run.append({ role: "user", content: input });
        continue;
      }
      session.beginIteration();
      session.recordResponse({
        responseMessages: turn.text ? [{ role: "assistant", content: turn.text }] : [],
        toolCalls: [],
        text: turn.text,
        ...spent,
      });
      recordOtherModels(session, turn);
      const next = session.handleFinalAnswer(turn.text);
      if (next.type !== "continue") return session.end(next);
      input = next.reply ?? input;
    }
  } catch (error) {
    throw session.fail(error);
  } finally {
    await conversation?.close();
  }
}

/**
 * The turn's tokens of other models than its own (a subagent's, a helper call's), each as a response of its
 * own on the turn's last step, after the turn's, so every observer prices each model as itself.
 */
function recordOtherModels(session: RunSession, turn: ConversationTurn): void {
  for (const { modelId, usage } of turn.otherModels ?? [])
    session.recordTurnTokens({ text: "", usage, modelId });
}

/**
 * Reports a new thread: the restart's one event (`RunRestarted`, cause `new-thread`, or `fallback` when a
 * dynamic backend could not offer the tools in time), then the events that detail it (`DynamicToolsFallback`
 * for a fallback, then `ConversationRestarted`), all before the old thread is closed.
 */
function newThread(run: Run, offered: ReadonlySet<string>, notOffered: ConversationTurn["toolsNotOffered"]) {
  const toolNames = run.toolNames();
  const fresh = toolNames.filter((name) => !offered.has(name));
  run.events.emit(
    notOffered
      ? { type: "RunRestarted", cause: "fallback", ...notOffered }
      : {
          type: "RunRestarted",
          cause: "new-thread",
          reason: `this backend cannot add ${fresh.join(", ")} to a running thread`,
          toolNames: fresh,
        },
  );
  if (notOffered) run.events.emit({ type: "DynamicToolsFallback", fallback: "restart", ...notOffered });
  run.events.emit({ type: "ConversationRestarted", toolNames });
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

/** Whether the history has tool calls (a resumed run). */
function hasToolCalls(history: readonly ModelMessage[]): boolean {
  return history.some((m) => m.role === "tool");
}

/**
 * One line per tool call of the history, with its result (a long one cut with the note a long tool result
 * gets, `serializeToolResult`'s): what a new thread is told. When one was cut, a last line says how to read
 * it whole: a model told not to repeat its calls would otherwise never read the rest.
 */
function transcriptOf(history: readonly ModelMessage[]): string[] {
  const inputs = new Map<string, unknown>();
  const lines: string[] = [];
  let cut = false;
  for (const message of history) {
    if (message.role === "assistant" && typeof message.content !== "string") {
      for (const part of message.content)
        if (part.type === "tool-call") inputs.set(part.toolCallId, part.input);
    }
    if (message.role !== "tool") continue;
    for (const part of message.content) {
      if (part.type !== "tool-result") continue;
      const text = resultText(part.output);
      const input = JSON.stringify(inputs.get(part.toolCallId) ?? {});
      cut ||= text.length > MAX_TRANSCRIPT_RESULT;
      lines.push(
        `- ${part.toolName}(${input}) → ${serializeToolResult(text, { maxChars: MAX_TRANSCRIPT_RESULT })}`,
      );
    }
  }
  if (cut) lines.push("A result cut here can be read again whole by calling its tool again.");
  return lines;
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
