// A step that has more than one `ModelResponded`: a conversation backend reports the turn a stop ended (a
// new thread, a pause) in a second one of its last step, and each other model the turn used (a subagent's,
// a helper call's) in one more (docs/backends.md, "Usage and cost on a conversation backend"). One rule for
// every observer that adds up a step (cost, spans, the run log's view, the testing kit): how its texts
// join, and which response is another model's rather than more of the step's own.

/** The texts of one step's responses as one: the non-empty ones, blank-line separated ("" when none). */
export function joinedStepText(first: string | undefined, second: string | undefined): string {
  if (!first) return second ?? "";
  return second ? `${first}\n\n${second}` : first;
}

/**
 * Whether a further response of a step, naming `modelId`, is another model's calls: the step's own
 * responses named `stepModel` first, and this one names another.
 */
export function isAnotherModel(
  stepModel: string | undefined,
  modelId: string | undefined,
): modelId is string {
  return stepModel !== undefined && modelId !== undefined && modelId !== stepModel;
}
