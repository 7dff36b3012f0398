// A cassette is what `recordModel` writes and `ReplayLanguageModel` plays: each model call of a run, in
// order, with the names of the tools the request offered (to check a replayed run against) and the
// response as the provider gave it. It never holds request headers, API keys, the request body or the
// prompt: only what the model answered and which tools it could call.

/** The `format` of every cassette file. */
export const CASSETTE_FORMAT = "entity-tools/cassette";
/** The version `recordModel` writes. */
export const CASSETTE_VERSION = 1;
/** Every version this package replays. */
export const READABLE_CASSETTE_VERSIONS: readonly number[] = [1];

/** A JSON object as a cassette stores it (binary data as base64 text, dates as ISO text). */
export type CassetteJson = Readonly<Record<string, unknown>>;

/** A recorded run's model calls, as plain JSON (see docs/testing.md, "Record and replay"). */
export interface Cassette {
  /** Always {@link CASSETTE_FORMAT}. */
  readonly format: typeof CASSETTE_FORMAT;
  /** The format version ({@link CASSETTE_VERSION} when recorded by this package). */
  readonly version: number;
  /** The recorded model. A replay answers as it: deferred delivery takes the same form. */
  readonly model: CassetteModel;
  /** One per model call, in the order they were made. */
  readonly steps: readonly CassetteStep[];
}

/** Which model a cassette was recorded from. */
export interface CassetteModel {
  /** The AI SDK provider id (`openai.responses`). */
  readonly provider: string;
  /** The model's id at its provider (`gpt-5-mini`). */
  readonly modelId: string;
  /** The provider spec the model implemented (`v3` with ai 6, `v4` with ai 7). */
  readonly specificationVersion: string;
}

/** One model call: what the request offered and what the model answered. */
export interface CassetteStep {
  /** The call's number, from 1. */
  readonly step: number;
  /** What the request offered (never its prompt, body or headers). */
  readonly request: {
    /** The tools the model could call: the request's tool list, and tools delivered deferred in its prompt. */
    readonly tools: readonly string[];
    /**
     * When the request carried tool results (those of the step before, a resume's decided calls): the
     * calls whose result was an error, by call id (`[]`: none). A replay checks the run's results against
     * it. Absent on a first step, and in cassettes recorded before it was written.
     */
    readonly failed?: readonly string[];
  };
  /** What the model answered. */
  readonly response: CassetteResponse;
}

/** A recorded answer: a whole result (`generate`) or the parts of a stream (`stream`). */
export type CassetteResponse =
  | {
      readonly kind: "generate";
      /** The provider spec's content parts: text, reasoning, tool calls, files, sources. */
      readonly content: readonly CassetteJson[];
      readonly finishReason: CassetteJson;
      readonly usage: CassetteJson;
      readonly providerMetadata?: CassetteJson;
      /** The response's id, model id and timestamp (never its headers or body). */
      readonly response?: CassetteJson;
      readonly warnings: readonly CassetteJson[];
    }
  | {
      readonly kind: "stream";
      /** The provider spec's stream parts, in order (raw chunks left out, an error as its message). */
      readonly parts: readonly CassetteJson[];
    };
