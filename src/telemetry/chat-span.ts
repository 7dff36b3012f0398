import type { Span } from "@opentelemetry/api";
import type { ModelRespondedEvent } from "../events/tool-loop-event.js";
import type { TokenUsage } from "../events/token-usage.js";
import { usageAttributes } from "./span-attributes.js";

/** A conversation step's span whose response came, and what that response reported. */
export interface Answered {
  readonly span: Span;
  readonly iteration: number;
  /** When the response came (`performance.now()`), the span's end. */
  readonly endTime: number;
  readonly usage: TokenUsage;
  readonly text: string;
}

/** Sets what a step's response reported (its model, tokens and, with `recordContent`, text) on its `chat` span. */
export function setResponse(
  step: Span,
  response: Pick<ModelRespondedEvent, "modelId" | "responseModelId" | "usage" | "text">,
  recordContent: boolean,
): void {
  if (response.modelId !== undefined) {
    step.updateName(`chat ${response.modelId}`); // the GenAI conventions name a span by the request's model
    step.setAttributes({
      "gen_ai.request.model": response.modelId,
      "gen_ai.response.model": response.responseModelId ?? response.modelId,
    });
  }
  step.setAttributes({
    ...usageAttributes(response.usage),
    ...(recordContent ? { "entity_tools.response.text": response.text } : {}),
  });
}
