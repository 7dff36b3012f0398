// A cassette's parts are the provider spec's, and the spec adds types (V4 has more than V3). A type a
// replay does not know at all is played as recorded, and said (a Node warning, `checkCassette`): refused,
// a cassette of a newer `ai` would not replay at all until entity-tools knew its types, though the AI SDK
// that recorded it reads them; played without a word, a part the loop mishandles would pass unseen. What a
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

/**
 * What a part's `type` is to a replay: a type it knows, a known one misspelled (another case or
 * separator: `meant` is the type), or one it does not know (a newer provider spec's, played as recorded).
 */
export function partType(type: string): "known" | "unknown" | { readonly meant: string } {
  const meant = BY_BARE.get(bare(type));
  if (meant === undefined) return "unknown";
  return meant === type ? "known" : { meant };
}
