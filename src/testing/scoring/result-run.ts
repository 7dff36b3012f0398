import type { ModelMessage, ToolResultPart } from "ai";
import type { RunOutcomeFields } from "../../runner/tool-loop-result.js";
import { providerBindingOf } from "../../tools/provider-binding.js";
import type { ProviderIdentity } from "../../tools/provider-identity.js";
import { handleOfCall } from "./call-provider.js";
import type { ToolBinding, ToolUseCall, ToolUseRun, ToolUseStep } from "./tool-use-run.js";

/** What the scorer reads of a run's result (a `ToolLoopResult`, completed or paused). */
export type ScoredResult = Pick<RunOutcomeFields, "conversationHistory" | "snapshot" | "injectedTools">;

/**
 * A run's result as the scorer reads it: one step per model answer in the history, its calls with the
 * providers they ran on; what was offered is known for the run as a whole (the tools at its end and every
 * tool it injected), not per step. A `RunRecorder` (or the run log) knows each step's tools, and which
 * provider the runner checked each handle call's handle names; a result has only the handle's text (see
 * {@link checkedHandleProvider}).
 */
export function resultToolUse(result: ScoredResult): ToolUseRun {
  const tools: Record<string, ToolBinding> = {};
  const offered = new Set<string>();
  for (const tool of result.snapshot.tools) {
    offered.add(tool.name);
    if ("binding" in tool) tools[tool.name] = { providerClass: tool.providerClass, method: tool.method };
    else if ("method" in tool) {
      const { providerClass, id, idType, method } = tool;
      tools[tool.name] = { providerClass, method, provider: { providerClass, id, idType } };
    }
  }
  for (const tool of result.injectedTools) {
    offered.add(tool.name);
    const bound = providerBindingOf(tool);
    if (!bound) continue;
    const { providerClass, id, idType, method } = bound;
    tools[tool.name] = { providerClass, method, provider: { providerClass, id, idType } };
  }
  return { steps: stepsOf(result.conversationHistory, tools), tools, offeredInRun: [...offered] };
}

function stepsOf(
  history: readonly ModelMessage[],
  tools: Readonly<Record<string, ToolBinding>>,
): ToolUseStep[] {
  const failed = new Set<string>();
  const answered = new Set<string>(); // a call with no result waits for a person: the run paused before it
  const given: string[] = []; // what the tool results said: the handles the model was given are in it
  for (const message of history) {
    if (message.role !== "tool") continue;
    for (const part of message.content) {
      if (part.type !== "tool-result") continue;
      answered.add(part.toolCallId);
      if (/^(error-|execution-denied)/.test(part.output.type)) failed.add(part.toolCallId);
      else given.push(outputText(part.output));
    }
  }
  const steps: ToolUseStep[] = [];
  for (const message of history) {
    if (message.role !== "assistant") continue;
    const step = steps.length + 1;
    const calls: ToolUseCall[] = [];
    for (const part of typeof message.content === "string" ? [] : message.content) {
      if (part.type !== "tool-call" || part.providerExecuted === true) continue;
      const provider =
        tools[part.toolName]?.provider ??
        checkedHandleProvider(part.input, failed.has(part.toolCallId), given);
      calls.push({
        step,
        toolName: part.toolName,
        input: part.input,
        ...(provider ? { provider } : {}),
        ...(failed.has(part.toolCallId) ? { failed: true } : {}),
        ...(answered.has(part.toolCallId) ? {} : { waiting: true }),
      });
    }
    steps.push({ step, calls });
  }
  return steps;
}

/**
 * The provider a call names by its handle, when the run took the handle: the call ran or waits for a
 * person (a refused handle does neither: it fails before both), or it failed with a handle a tool result
 * of the run gave the model, verbatim. A forged or garbled handle (a changed signature) fails and was
 * given by no result: it names no provider. (A valid handle from elsewhere, the prompt or another run,
 * whose call failed is not credited either: the result cannot tell it from a forged one.)
 */
function checkedHandleProvider(
  input: unknown,
  failed: boolean,
  given: readonly string[],
): ProviderIdentity | undefined {
  const named = handleOfCall(input);
  if (!named || !failed) return named?.provider;
  const quoted = JSON.stringify(named.handle); // as the handles notice lists it
  return given.some((text) => text.includes(quoted)) ? named.provider : undefined;
}

/** A successful result's text as the model read it (the handles notice is text appended to it). */
function outputText(output: ToolResultPart["output"]): string {
  if (output.type === "text") return output.value;
  if (output.type === "content")
    return output.value.map((part) => (part.type === "text" ? part.text : "")).join("\n");
  return "value" in output ? JSON.stringify(output.value ?? null) : "";
}
