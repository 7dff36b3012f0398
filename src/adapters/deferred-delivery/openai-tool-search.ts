import type { JSONObject, LanguageModelV3Message } from "@ai-sdk/provider";
import { jsonSchema, type ModelMessage } from "ai";
import type { AnyTool } from "../../tools/tool.js";
import type { DeliveredNames, DeliveryChange, DeliveryForm } from "./delivery-form.js";

/** The SDK name of the tool search tool (the wire type is `tool_search` whatever it is called). */
const TOOL_SEARCH = "tool_search";

const args = {
  execution: "client",
  description:
    "Tools of the entities that tool results return are loaded here automatically, as soon as a result " +
    "contains them; there is no need to call this.",
  parameters: {
    type: "object",
    properties: { query: { type: "string" } },
    required: ["query"],
    additionalProperties: false,
  },
};

/**
 * OpenAI Responses (`@ai-sdk/openai` `.responses`): client-executed tool search. Every request declares
 * one `tool_search` tool (`execution: "client"`); a discovery is delivered, right after the results of
 * the call that found the entities, as a completed client tool search: a `tool_search_call` and its
 * `tool_search_output`, whose tools are one namespace per entity holding its functions with
 * `defer_loading: true`. OpenAI loads such tools at the end of the context, so the cached prefix is kept.
 * Tool search has no unloading: a tool the budget evicts stays in the model's context, and a call to it is
 * answered as a call to any tool the run does not offer.
 */
export const openAiToolSearch: DeliveryForm = {
  name: "OpenAI client tool search",
  providerTools: [{ type: "provider", id: "openai.tool_search", name: TOOL_SEARCH, args }],
  sdkTools: {
    [TOOL_SEARCH]: {
      type: "provider",
      id: "openai.tool_search",
      args,
      inputSchema: jsonSchema({ type: "object" }),
    },
  },
  systemMessages: false,
  deliver: ({ added, sequence }: DeliveryChange): ModelMessage[] => {
    if (added.length === 0) return [];
    const toolCallId = `entity_tools_${sequence}`;
    const query = added.map((t) => t.name).join(" ");
    return [
      {
        role: "assistant",
        content: [
          {
            type: "tool-call",
            toolCallId,
            toolName: TOOL_SEARCH,
            input: { call_id: toolCallId, arguments: { query } },
          },
        ],
      },
      {
        role: "tool",
        content: [
          {
            type: "tool-result",
            toolCallId,
            toolName: TOOL_SEARCH,
            output: { type: "json", value: { tools: namespaces(added) } },
          },
        ],
      },
    ];
  },
  read: (message: LanguageModelV3Message): DeliveredNames | undefined => {
    if (message.role !== "tool") return undefined;
    const added: string[] = [];
    for (const part of message.content) {
      if (part.type !== "tool-result" || part.toolName !== TOOL_SEARCH || part.output.type !== "json")
        continue;
      const { tools } = (part.output.value ?? {}) as { tools?: unknown };
      if (Array.isArray(tools)) added.push(...functionNames(tools));
    }
    return added.length > 0 ? { added, removed: [] } : undefined;
  },
};

/** The function names in a tool search output: its functions, and those inside its namespaces. */
function functionNames(tools: readonly unknown[]): string[] {
  return tools.flatMap((tool) => {
    const { type, name, tools: inner } = (tool ?? {}) as { type?: unknown; name?: unknown; tools?: unknown };
    if (type === "namespace" && Array.isArray(inner)) return functionNames(inner);
    return type === "function" && typeof name === "string" ? [name] : [];
  });
}

/** One namespace per entity (OpenAI advises fewer than 10 functions in one), in discovery order. */
function namespaces(tools: readonly AnyTool[]): JSONObject[] {
  const groups = new Map<object, AnyTool[]>();
  for (const tool of tools) {
    const key = tool.origin?.instance ?? tool;
    groups.set(key, [...(groups.get(key) ?? []), tool]);
  }
  return [...groups.values()].map((group) => {
    const identity = group[0]!.origin?.identity;
    return {
      type: "namespace",
      name: namespaceName(group),
      description: identity ? `The tools of ${identity.providerClass} ${identity.id}` : group[0]!.description,
      tools: group.map((tool) => ({
        type: "function",
        name: tool.name,
        description: tool.description,
        parameters: tool.inputSchema as JSONObject,
        defer_loading: true,
      })),
    };
  });
}

/**
 * The entity's part of its tools' names (`customer_c1` of `customer_c1_getSpend`). A binding renamed because
 * its natural names were another's (`1` and `"1"`) has a hash in each name (`account_1_<hash>_withdraw`, one
 * hash per tool): its namespace takes the first tool's hash, so two entities never share a namespace.
 */
function namespaceName(group: readonly AnyTool[]): string {
  const entities = group.map(entityPart);
  const first = entities[0]!;
  if (entities.every((e) => e === first)) return first;
  let prefix = first;
  for (const entity of entities) while (!entity.startsWith(prefix)) prefix = prefix.slice(0, -1);
  const cut = prefix.lastIndexOf("_");
  if (cut <= 0) return first;
  return `${prefix.slice(0, cut)}_${first.slice(first.lastIndexOf("_") + 1)}`;
}

/** A tool's name without its method (`customer_c1` of `customer_c1_getSpend`), or the whole name. */
function entityPart(tool: AnyTool): string {
  const method = tool.origin?.methodName;
  return method && tool.name.endsWith(`_${method}`) ? tool.name.slice(0, -(method.length + 1)) : tool.name;
}
