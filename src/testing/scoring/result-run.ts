import type { ModelMessage } from "ai";
import type { RunOutcomeFields } from "../../runner/tool-loop-result.js";
import { providerBindingOf } from "../../tools/provider-binding.js";
import { handleProviderOf } from "./call-provider.js";
import type { ToolBinding, ToolUseCall, ToolUseRun, ToolUseStep } from "./tool-use-run.js";

/** What the scorer reads of a run's result (a `ToolLoopResult`, completed or paused). */
export type ScoredResult = Pick<RunOutcomeFields, "conversationHistory" | "snapshot" | "injectedTools">;

/**
 * A run's result as the scorer reads it: one step per model answer in the history, its calls with the
 * providers they ran on; what was offered is known for the run as a whole (the tools at its end and every
 * tool it injected), not per step. A `RunRecorder` (or the run log) knows each step's tools.
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
  for (const message of history) {
    if (message.role !== "tool") continue;
    for (const part of message.content) {
      if (part.type !== "tool-result") continue;
      answered.add(part.toolCallId);
      if (/^(error-|execution-denied)/.test(part.output.type)) failed.add(part.toolCallId);
    }
  }
  const steps: ToolUseStep[] = [];
  for (const message of history) {
    if (message.role !== "assistant") continue;
    const step = steps.length + 1;
    const calls: ToolUseCall[] = [];
    for (const part of typeof message.content === "string" ? [] : message.content) {
      if (part.type !== "tool-call" || part.providerExecuted === true) continue;
      const provider = tools[part.toolName]?.provider ?? handleProviderOf(part.input);
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
