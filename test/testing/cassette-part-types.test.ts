// A cassette part of a type this entity-tools does not know (a newer provider spec's, recorded by a newer
// `ai`) is played as recorded, and said: a Node warning names the file, each such type and where it first
// is, so a test that replays one can see that the AI SDK read it, not entity-tools. Refused, the cassette
// would not replay at all until entity-tools knew the type; a misspelled known type is still refused.
import { afterEach, describe, expect, it, vi } from "vitest";
import { PromptRunner } from "entity-tools";
import { CassetteError, ReplayLanguageModel, parseCassette, type Cassette } from "entity-tools/testing";
import { warnings } from "./support/node-warnings.js";

afterEach(() => vi.restoreAllMocks());

const USAGE = {
  inputTokens: { total: 5, noCache: 5, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 2, text: 2, reasoning: 0 },
};

/** A one-step cassette whose answer is `content` (a whole result) or those parts streamed. */
function cassetteText(content: readonly Record<string, unknown>[], kind: "generate" | "stream"): string {
  const response =
    kind === "generate"
      ? { kind, content, finishReason: { unified: "stop", raw: "stop" }, usage: USAGE, warnings: [] }
      : {
          kind,
          parts: [
            { type: "stream-start", warnings: [] },
            ...content,
            { type: "finish", finishReason: { unified: "stop", raw: "stop" }, usage: USAGE },
          ],
        };
  const cassette = {
    format: "entity-tools/cassette",
    version: 1,
    model: { provider: "newer.provider", modelId: "m", specificationVersion: "v4" },
    steps: [{ step: 1, request: { tools: [] }, response }],
  };
  return JSON.stringify(cassette, null, 2);
}

const run = (cassette: Cassette) => new PromptRunner({ model: new ReplayLanguageModel(cassette) }).run("Hi");

describe("a cassette part of a type entity-tools does not know", () => {
  it.each(["generate", "stream"] as const)(
    "is played as recorded, with a warning naming the file, the type and where it is (%s)",
    async (kind) => {
      const seen = warnings();
      const text = cassetteText(
        kind === "generate"
          ? [
              { type: "text", text: "Hello there." },
              { type: "citation", quote: "…" },
              { type: "citation", quote: "again" },
              { type: "audio-note", seconds: 3 },
            ]
          : [
              { type: "text-start", id: "t" },
              { type: "text-delta", id: "t", delta: "Hello there." },
              { type: "text-end", id: "t" },
              { type: "citation-delta", quote: "…" },
            ],
        kind,
      );
      const cassette = parseCassette(text, "newer.json");
      const key = kind === "generate" ? "content" : "parts";
      expect(seen).toEqual([
        `ENTITY_TOOLS_CASSETTE_UNKNOWN_PART: The cassette newer.json has parts of a type this entity-tools does not know: ${
          kind === "generate"
            ? `"citation" (first at steps.0.response.content.1), "audio-note" (first at steps.0.response.content.3)`
            : `"citation-delta" (first at steps.0.response.${key}.4)`
        }. They are played as recorded, for the AI SDK to read (a newer provider spec's types); an AI SDK that does not know one either drops it, and the run may not go as recorded. Update entity-tools, or check that the replayed run is the recorded one.`,
      ]);
      // Played: the run reads the parts the AI SDK knows, as it would from the model.
      expect((await run(cassette)).result).toBe("Hello there.");
      expect(seen).toHaveLength(1); // said once, when the cassette was checked, not again per play
    },
  );

  it("says nothing of the types of either spec, and still refuses a misspelled one", () => {
    const seen = warnings();
    parseCassette(
      cassetteText(
        [
          { type: "reasoning", text: "thinking" },
          { type: "custom", kind: "x" },
          { type: "text", text: "Hello." },
        ],
        "generate",
      ),
      "known.json",
    );
    expect(seen).toEqual([]);
    const misspelled = cassetteText([{ type: "Text", text: "Hello." }], "generate");
    expect(() => parseCassette(misspelled, "typo.json")).toThrow(CassetteError);
    expect(() => parseCassette(misspelled, "typo.json")).toThrow(
      'field "steps.0.response.content.0.type" is "Text": did you mean "text"?',
    );
    expect(seen).toEqual([]);
  });
});
