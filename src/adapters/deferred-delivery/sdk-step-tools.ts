import type { ToolSet } from "ai";
import type { AnyTool } from "../../tools/tool.js";
import { toSdkTools } from "../tool-definitions.js";
import type { DeliveredStep } from "./deferred-delivery.js";

/** The tool options of a step that goes through `generateText` / `streamText`. */
export interface SdkStepTools {
  readonly tools?: ToolSet;
  readonly activeTools?: string[];
  readonly allowSystemInMessages?: boolean;
}

/**
 * A step's tools for the SDK: every tool the model may call (so the SDK parses a call to a deferred one),
 * with only the listed ones and the form's own tools active (sent in the request's tool list), and system
 * messages allowed when the form delivers through them.
 */
export function sdkStepTools(tools: readonly AnyTool[], delivered: DeliveredStep): SdkStepTools {
  const { form } = delivered;
  if (!form) return tools.length > 0 ? { tools: toSdkTools(tools) } : {};
  return {
    tools: { ...toSdkTools(tools), ...form.sdkTools },
    activeTools: [...delivered.listed.map((t) => t.name), ...Object.keys(form.sdkTools)],
    ...(form.systemMessages ? { allowSystemInMessages: true } : {}),
  };
}
