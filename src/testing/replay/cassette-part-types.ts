// A cassette's parts are the provider spec's, and the spec adds types (V4 has more than V3), so a part
// type a replay does not know is played as recorded: the AI SDK reads a newer spec's parts itself. What a
// hand edit can get wrong is the spelling of a known type (`tool_call`, `Text`, `toolCall`): the AI SDK
// drops a part it does not know, so a misspelled tool call would vanish from the replay without a word.
// Such a spelling is refused, naming the type meant.

/** The content and stream part types of the provider specs V3 and V4 that a replay plays. */
const PART_TYPES: readonly string[] = [
  "text",
  "reasoning",
  "reasoning-file",
  "file",
  "source",
  "custom",
  "tool-call",
  "tool-result",
  "tool-approval-request",
  "text-start",
  "text-delta",
  "text-end",
  "reasoning-start",
  "reasoning-delta",
  "reasoning-end",
  "tool-input-start",
  "tool-input-delta",
  "tool-input-end",
  "stream-start",
  "response-metadata",
  "finish",
  "error",
  "raw",
];

/** `type`'s spelling without case or separators: `tool_call`, `Tool-Call` and `toolCall` are `toolcall`. */
const bare = (type: string) => type.toLowerCase().replace(/[-_\s]/g, "");
const BY_BARE = new Map(PART_TYPES.map((type) => [bare(type), type]));

/** The known part type `type` misspells (another case or separator), or undefined (known, or another type). */
export function misspelledPartType(type: string): string | undefined {
  const meant = BY_BARE.get(bare(type));
  return meant !== undefined && meant !== type ? meant : undefined;
}
