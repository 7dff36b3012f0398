// A step's model text when it comes in two responses: a conversation backend reports the turn a stop ended
// (a new thread, a pause) in a second `ModelResponded` of its last step (docs/backends.md, "Usage and cost
// on a conversation backend"). One rule for every observer that shows a step's text.

/** The texts of one step's responses as one: the non-empty ones, blank-line separated ("" when none). */
export function joinedStepText(first: string | undefined, second: string | undefined): string {
  if (!first) return second ?? "";
  return second ? `${first}\n\n${second}` : first;
}
