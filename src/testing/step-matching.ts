// What a scripted or replayed model checks at each step, in one place: the tools the request offers (its
// tool list and, under deferred delivery, the tools its prompt delivered), and how a step is described
// when it cannot be played.
import type {
  LanguageModelV3CallOptions,
  LanguageModelV3Prompt,
  LanguageModelV3ToolResultOutput,
} from "@ai-sdk/provider";
import { deliveredToolNames } from "../adapters/deferred-delivery/delivered-tool-names.js";

/**
 * Every tool a provider call lets the model call: the request's tool list, then the tools deferred
 * delivery put in its prompt (which never enter the tool list), each once.
 */
export function offeredToolNames(options: LanguageModelV3CallOptions): string[] {
  const listed = (options.tools ?? []).map((t) => t.name);
  const delivered = deliveredToolNames(options.prompt);
  if (delivered.length === 0) return listed;
  return [...new Set([...listed, ...delivered])];
}

/** Names for a message: comma-separated, or "(no tools)". */
export function listNames(names: readonly string[]): string {
  return names.length > 0 ? names.join(", ") : "(no tools)";
}

/** The last message of a call, abbreviated: what the model was answering when the step could not be played. */
export function lastMessage(options: LanguageModelV3CallOptions): string {
  const last = options.prompt[options.prompt.length - 1];
  if (!last) return "(none)";
  const text = JSON.stringify(last.content);
  return `${last.role}: ${text.length > 300 ? `${text.slice(0, 300)}…` : text}`;
}

/** A tool result a request carries: the call's id and tool, whether it was an error, and its output. */
export interface CarriedResult {
  readonly toolCallId: string;
  readonly toolName: string;
  readonly failed: boolean;
  readonly output: LanguageModelV3ToolResultOutput;
}

/**
 * The tool results a request carries after its last assistant message: those of the calls the step before
 * made (and a resumed run's decided calls). None on a run's first step or a conversation's next turn.
 */
export function carriedResults(prompt: LanguageModelV3Prompt): CarriedResult[] {
  const results: CarriedResult[] = [];
  for (let i = prompt.length - 1; i >= 0; i--) {
    const message = prompt[i]!;
    if (message.role === "assistant") break;
    if (message.role !== "tool") continue;
    for (const part of message.content) {
      if (part.type !== "tool-result") continue;
      const { toolCallId, toolName, output } = part;
      const failed = /^(error-|execution-denied)/.test(output.type);
      results.unshift({ toolCallId, toolName, failed, output });
    }
  }
  return results;
}

/** A carried result's text, for a message: made only when one is written (a recording needs `failed` alone). */
export function carriedText({ output }: CarriedResult): string {
  const value: unknown = "value" in output ? output.value : "reason" in output ? output.reason : "";
  return (typeof value === "string" ? value : JSON.stringify(value)) ?? "";
}
