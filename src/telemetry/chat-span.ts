import type { Context, Span, Tracer } from "@opentelemetry/api";
import type * as Api from "@opentelemetry/api";
import type { ModelRespondedEvent } from "../events/tool-loop-event.js";
import { isAnotherModel } from "../events/step-responses.js";
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

/**
 * Whether a response is another model's calls on a conversation step (a subagent's, a helper call's),
 * reported after the step's own: `named` is the model the step's responses named first, by step.
 */
export function isOtherModel(
  named: { readonly iteration: number; readonly modelId: string } | undefined,
  event: ModelRespondedEvent,
): boolean {
  return named?.iteration === event.iteration && isAnotherModel(named.modelId, event.modelId);
}

/** Another model's calls on a conversation step: a `chat {model}` span of their own, with their tokens. */
export function otherModelSpan(
  tracer: Tracer,
  api: Pick<typeof Api, "SpanKind">,
  parent: Context,
  event: ModelRespondedEvent,
  recordContent: boolean,
): void {
  const attributes = { "gen_ai.operation.name": "chat", "entity_tools.step": event.iteration };
  const span = tracer.startSpan("chat", { kind: api.SpanKind.CLIENT, attributes }, parent);
  setResponse(span, event, recordContent);
  span.end();
}
