// A step's `response` records as the viewer shows them: one response with the step's tokens and cost, and
// apart, the responses of other models than the step's.
import { addUsage } from "../events/token-usage.js";
import { isAnotherModel, joinedStepText } from "../events/step-responses.js";
import type { ResponseRecord } from "./run-log-format.js";

/** A step's responses so far. */
export interface StepResponses {
  response?: ResponseRecord;
  otherModels?: ResponseRecord[];
}

/**
 * Adds a `response` record to its step and returns the step's response now. A step has more than one when
 * a conversation backend reports a stopped turn's tokens after its last call's response, and other models'
 * tokens (a subagent's, a helper call's) after the turn's (docs/backends.md, "Usage and cost"): the step
 * shows the tokens and cost of all, named by the step's model (the first one named), and keeps the other
 * models' records apart in `otherModels`.
 */
export function addResponse(step: StepResponses, record: ResponseRecord): ResponseRecord {
  if (isAnotherModel(step.response?.modelId, record.modelId)) (step.otherModels ??= []).push(record);
  step.response = step.response ? bothResponses(step.response, record) : record;
  return step.response;
}

function bothResponses(first: ResponseRecord, second: ResponseRecord): ResponseRecord {
  // A step with a response of unknown cost has an unknown cost: a sum with an unknown part is unknown.
  const cost =
    first.costUnknown || second.costUnknown
      ? { costUnknown: true as const }
      : first.cost === undefined && second.cost === undefined
        ? {}
        : { cost: (first.cost ?? 0) + (second.cost ?? 0) };
  const modelId = first.modelId ?? second.modelId;
  const { cost: _cost, costUnknown: _unknown, ...rest } = first;
  return {
    ...rest,
    ...(modelId === undefined ? {} : { modelId }),
    usage: addUsage(first.usage, second.usage),
    ...cost,
    ...(first.text || second.text ? { text: joinedStepText(first.text, second.text) } : {}),
  };
}
