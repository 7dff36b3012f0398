import type { JSONSchema7, LanguageModelV3FunctionTool, LanguageModelV3ProviderTool } from "@ai-sdk/provider";
import { jsonSchema, type ToolSet } from "ai";
import type { AnyTool } from "../tools/tool.js";

/** The AI SDK tool set for one step: descriptions and JSON schemas, no `execute`. */
export function toSdkTools(tools: readonly AnyTool[]): ToolSet {
  // Defined, not assigned: a tool named `__proto__` is a tool, not the set's prototype.
  return Object.fromEntries(tools.map((t) => [t.name, sdkToolOf(t)])) as ToolSet;
}

/** A step's tools as the provider receives them, and their names. */
export interface ProviderTools {
  /**
   * What the SDK's tool preparation makes of {@link toSdkTools}: a function tool each, its schema as given
   * (and, with deferred delivery, the provider tools of the provider's deferred form).
   */
  readonly definitions: readonly (LanguageModelV3FunctionTool | LanguageModelV3ProviderTool)[];
  /** Every tool the model may call, deferred ones included. */
  readonly names: ReadonlySet<string>;
}

// A run's tool list is one frozen array until the tools change; steps in between share its view.
const views = new WeakMap<readonly AnyTool[], ProviderTools>();

/** The provider's view of a step's tools (kept for a frozen list, which cannot change under it). */
export function toProviderTools(tools: readonly AnyTool[]): ProviderTools {
  let view = views.get(tools);
  if (!view) {
    view = { definitions: tools.map(providerToolOf), names: new Set(tools.map((t) => t.name)) };
    if (Object.isFrozen(tools)) views.set(tools, view);
  }
  return view;
}

// Each tool's definitions are built once (tools are immutable; a renamed tool is a new object), not at
// every step of every run that offers it.
function perTool<T>(build: (tool: AnyTool) => T): (tool: AnyTool) => T {
  const built = new WeakMap<AnyTool, T>();
  return (tool) => {
    let definition = built.get(tool);
    if (definition === undefined) {
      definition = build(tool);
      built.set(tool, definition);
    }
    return definition;
  };
}

const sdkToolOf = perTool((tool): ToolSet[string] => ({
  description: tool.description,
  inputSchema: jsonSchema(tool.inputSchema as JSONSchema7),
}));

const providerToolOf = perTool((tool): LanguageModelV3FunctionTool => ({
  type: "function",
  name: tool.name,
  description: tool.description,
  inputSchema: tool.inputSchema as JSONSchema7,
}));
