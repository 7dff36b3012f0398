import type { JSONObject, LanguageModelV3Message } from "@ai-sdk/provider";
import type { ModelMessage } from "ai";
import type { DeliveredNames, DeliveryChange, DeliveryForm } from "./delivery-form.js";

/**
 * Anthropic Messages (`@ai-sdk/anthropic`): a mid-conversation system message with tool changes
 * (`providerOptions.anthropic.toolChanges`). A discovered tool is added by value (`tool_addition` with its
 * definition; the package adds the `mid-conversation-tool-changes` and `inline-tools` betas), so it never
 * enters the request's `tools`: the tool list, the system prompt and every earlier message stay byte for
 * byte what the provider cached. A tool the budget evicts is removed the same way (`tool_removal`), so the
 * model no longer sees it; found again, it is added again.
 */
export const anthropicToolChanges: DeliveryForm = {
  name: "Anthropic tool changes",
  providerTools: [],
  sdkTools: {},
  systemMessages: true,
  deliver: ({ added, removed }: DeliveryChange): ModelMessage[] => {
    const toolChanges = [
      ...removed.map((toolName) => ({ type: "tool_removal", toolName })),
      ...added.map((tool) => ({
        type: "tool_addition",
        tool: {
          type: "function",
          name: tool.name,
          description: tool.description,
          inputSchema: tool.inputSchema as JSONObject,
        },
      })),
    ];
    return [{ role: "system", content: "", providerOptions: { anthropic: { toolChanges } } }];
  },
  read: (message: LanguageModelV3Message): DeliveredNames | undefined => {
    const changes = message.role === "system" ? message.providerOptions?.anthropic?.toolChanges : undefined;
    if (!Array.isArray(changes)) return undefined;
    const added: string[] = [];
    const removed: string[] = [];
    for (const change of changes) {
      const { type, tool, toolName } = (change ?? {}) as {
        type?: unknown;
        tool?: unknown;
        toolName?: unknown;
      };
      const name = (tool as { name?: unknown } | undefined)?.name;
      if (type === "tool_addition" && typeof name === "string") added.push(name);
      if (type === "tool_removal" && typeof toolName === "string") removed.push(toolName);
    }
    return { added, removed };
  },
};
