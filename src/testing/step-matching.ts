// What a scripted or replayed model checks at each step, in one place: the tools the request offers (its
// tool list and, under deferred delivery, the tools its prompt delivered), and how a step is described
// when it cannot be played.
import type { LanguageModelV3CallOptions } from "@ai-sdk/provider";
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
