import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3GenerateResult,
  LanguageModelV3StreamResult,
} from "@ai-sdk/provider";
import { argumentText, generateResult, type ScriptedToolCall, type ScriptedTurn } from "./generate-result.js";
import type { Cassette } from "./replay/cassette.js";
import type { ReplayMismatchError } from "./replay/cassette-errors.js";
import { checkedOnce } from "./replay/checked-cassettes.js";
import { callIdsOf, RecordedCallIndex } from "./replay/replay-position.js";
import {
  pastEnd,
  playGenerate,
  playStream,
  recordsRunStarts,
  type RecordedTurn,
  type ReplayOptions,
} from "./replay/recorded-step.js";
import { lastMessage, listNames as list, offeredToolNames } from "./step-matching.js";
import { ScriptError } from "./script-error.js";
import { toolNameMatches, type ToolNameMatcher } from "./tool-name-matcher.js";
import { streamOf } from "./stream-parts.js";

/** No cassette's turn found: what most calls get (no cassette played), one value rather than one per call. */
const NOT_PLACED: readonly number[] = Object.freeze([]);

export type { ToolNameMatcher } from "./tool-name-matcher.js";

/** What a dynamic scripted turn sees: the step number, the tools offered, and the full call. */
export interface ScriptedRequest {
  /** The model call's number, from 1. */
  readonly step: number;
  /** The tools offered to the model at this call, by name. */
  readonly offeredTools: readonly string[];
  /** The call as the AI SDK made it (prompt, tools, settings). */
  readonly options: LanguageModelV3CallOptions;
}

type PlannedCall = {
  readonly matcher: ToolNameMatcher;
  readonly input: unknown;
  readonly mustBeOffered: boolean;
};
type Step =
  | { readonly kind: "calls"; readonly calls: readonly PlannedCall[] }
  | {
      readonly kind: "turn";
      readonly describe: string;
      readonly turn: (request: ScriptedRequest) => ScriptedTurn;
    }
  | { readonly kind: "recorded"; readonly turn: RecordedTurn };

/**
 * An AI SDK `LanguageModel` that plays a script, one turn per model call: tool calls (by exact name or by
 * pattern, so a test need not know generated ids), a final text, or a final object. Usable with
 * `PromptRunner` directly or through `FakePromptRunner`. Every call it receives is kept in `calls`.
 */
export class ScriptedLanguageModel implements LanguageModelV3 {
  /** The AI SDK model spec it implements: `"v3"`. */
  readonly specificationVersion = "v3";
  /** `"entity-tools"`. */
  readonly provider = "entity-tools";
  /** `"scripted"`. */
  readonly modelId = "scripted";
  /** None: the AI SDK downloads a URL part and passes its data. */
  readonly supportedUrls = {};
  /** Every call the model received, in order. */
  readonly calls: LanguageModelV3CallOptions[] = [];
  /** Differences between the run and the cassettes played with `onMismatch: "continue"`. */
  readonly mismatches: ReplayMismatchError[] = [];
  private readonly steps: Step[] = [];
  /** Each cassette played: where its recorded calls are (by id), and the script's index of its first turn. */
  private readonly cassettes: { readonly index: RecordedCallIndex; readonly at: number }[] = [];
  /** The script's index of the turn the next call plays, unless its prompt says otherwise. */
  private next = 0;
  /**
   * The tool calls this model answered, by id: a cassette's step that began a run, played after turns
   * scripted before it, carries their results, where a resume whose calls came from elsewhere is an error.
   */
  private readonly answered = new Set<string>();

  /**
   * The next turn calls one tool. `input` is the tool's arguments, sent as JSON; a string is sent as raw
   * argument text (to test bad JSON). To compute the input during the run, use {@link respondWith}.
   *
   * @throws ScriptError when `input` cannot be sent as JSON (a function, a bigint, a cycle).
   */
  callTool(tool: ToolNameMatcher, input: unknown = {}): this {
    argumentText(input ?? {}, `callTool(${nameOf(tool)}, input): the input`);
    return this.scriptCalls([[tool, input]], true);
  }

  /**
   * The next turn calls several tools at once, in this order (each input as {@link callTool}'s).
   *
   * @throws ScriptError when an input cannot be sent as JSON.
   */
  callTools(calls: readonly (readonly [ToolNameMatcher, unknown?])[]): this {
    calls.forEach(([tool, input], i) =>
      argumentText(input ?? {}, `callTools([…]): the input of call ${i + 1} (${nameOf(tool)})`),
    );
    return this.scriptCalls(calls, true);
  }

  /**
   * The next turn calls a tool that was not offered (a hallucinated name), to test how the loop copes.
   *
   * @throws ScriptError when `input` cannot be sent as JSON.
   */
  callUnknownTool(toolName: string, input: unknown = {}): this {
    argumentText(input ?? {}, `callUnknownTool(${nameOf(toolName)}, input): the input`);
    return this.scriptCalls([[toolName, input]], false);
  }

  private scriptCalls(
    calls: readonly (readonly [ToolNameMatcher, unknown?])[],
    mustBeOffered: boolean,
  ): this {
    this.steps.push({
      kind: "calls",
      calls: calls.map(([matcher, input]) => ({ matcher, input: input ?? {}, mustBeOffered })),
    });
    return this;
  }

  /** The next turn answers with text. */
  respondWithText(text: string): this {
    return this.respondWith(`text ${JSON.stringify(text)}`, () => ({ text }));
  }

  /** The next turn answers with this object as JSON (for `createObject`). */
  respondWithObject(value: unknown): this {
    return this.respondWith("an object", () => ({ text: JSON.stringify(value) }));
  }

  /** The next turn is computed from the request (e.g. to answer from a tool result). */
  respondWith(describe: string, turn: (request: ScriptedRequest) => ScriptedTurn): this {
    this.steps.push({ kind: "turn", describe, turn });
    return this;
  }

  /**
   * The next turns are a cassette's recorded answers, one per recorded call, each checked against the
   * run as `ReplayLanguageModel` checks it (`ReplayMismatchError` when a recorded call's tool is not offered).
   * The cassette is checked first unless `readCassette` or `parseCassette` gave it. One whose file was cut
   * while a call was being added ends with a turn that fails as a step past its end does, saying so. A call
   * whose prompt holds its recorded tool calls plays the turn after them, as `ReplayLanguageModel` does; a
   * call that reaches a recorded step that began a run carrying results of calls this model did not answer
   * (a resume whose first part the cassette does not hold) fails with `ReplayMismatchError`
   * (`result-differs`), naming those calls and what the cassette holds.
   *
   * @throws CassetteError when `cassette` is not one this version of entity-tools replays.
   */
  playCassette(
    cassette: Cassette,
    options: ReplayOptions & { readonly file?: string | undefined } = {},
  ): this {
    const read = checkedOnce(cassette, options.file ?? "(in memory)");
    const file = options.file ?? read.file ?? "(in memory)";
    const onMismatch = options.onMismatch ?? "fail";
    const from = this.steps.length + 1; // the run's step that plays the cassette's first
    const index = new RecordedCallIndex(cassette.steps);
    this.cassettes.push({ index, at: this.steps.length });
    const { mismatches, answered } = this;
    const startsRuns = recordsRunStarts(cassette);
    for (const recorded of cassette.steps)
      this.steps.push({
        kind: "recorded",
        turn: { recorded, file, onMismatch, mismatches, startsRuns, index, answered },
      });
    const { cut } = read;
    if (cut)
      this.respondWith(`the call cut off the end of ${file} (after step ${cut.steps})`, (request) => {
        throw pastEnd(file, request.step, cut.steps, request.options, cut, from);
      });
    return this;
  }

  /** Scripted turns after the one played last. */
  get remainingTurns(): number {
    return Math.max(0, this.steps.length - this.next);
  }

  /**
   * The scripted turns after the one played last, each as the script made it: `a call of "searchCustomer"`,
   * `text "46.83 a month."`, `step 3 of the cassette spend.json`.
   */
  get unplayedTurns(): string[] {
    return this.steps.slice(this.next).map(turnName);
  }

  /**
   * The script's turn a call plays, from 1: after a cassette's recorded calls its prompt holds last, the
   * turn after them (by `ReplayLanguageModel`'s rule, so a run resumed from a snapshot on a new fake goes on
   * where it paused; of a cassette played twice, the first); else the turn after the one played last.
   */
  private turnOf(options: LanguageModelV3CallOptions): number {
    this.calls.push(options);
    const next = this.next + 1;
    const placed =
      this.cassettes.length === 0
        ? NOT_PLACED
        : this.cassettes.flatMap(({ index, at }) => {
            const recorded = index.stepAfter(options.prompt);
            return recorded === undefined ? NOT_PLACED : [at + recorded];
          });
    // A cassette played twice holds the same ids twice: the turn after the last one played is one of them.
    this.next = placed.length === 0 || placed.includes(next) ? next : placed[0]!;
    return this.next;
  }

  /** Plays the next scripted turn against the tools offered. */
  async doGenerate(options: LanguageModelV3CallOptions): Promise<LanguageModelV3GenerateResult> {
    return this.play(this.turnOf(options), options);
  }

  private async play(
    step: number,
    options: LanguageModelV3CallOptions,
  ): Promise<LanguageModelV3GenerateResult> {
    const offeredTools = offeredToolNames(options);
    const planned = this.steps[step - 1];
    if (!planned) {
      throw new ScriptError(
        `The script ran out at step ${step}: the loop asked the model again after the last scripted turn ` +
          `(${this.steps.length} scripted). Offered: ${list(offeredTools)}. Last message: ${lastMessage(options)}`,
      );
    }
    const result =
      planned.kind === "recorded"
        ? playGenerate(planned.turn, step, options)
        : generateResult(
            planned.kind === "turn"
              ? planned.turn({ step, offeredTools, options })
              : { toolCalls: planned.calls.map((c) => resolveCall(c, step, offeredTools)) },
          );
    for (const part of result.content) if (part.type === "tool-call") this.answered.add(part.toolCallId);
    return result;
  }

  /**
   * The same scripted turn, streamed: its text word by word, then its tool calls, then the finish (a
   * recorded stream as it was recorded).
   */
  async doStream(options: LanguageModelV3CallOptions): Promise<LanguageModelV3StreamResult> {
    const step = this.turnOf(options);
    const planned = this.steps[step - 1];
    if (planned?.kind !== "recorded") return { stream: streamOf(await this.play(step, options)) };
    const stream = playStream(planned.turn, step, options);
    for (const id of callIdsOf(planned.turn.recorded.response)) this.answered.add(id);
    return { stream };
  }
}

function resolveCall(call: PlannedCall, step: number, offered: readonly string[]): ScriptedToolCall {
  const { matcher, input } = call;
  if (typeof matcher === "string") {
    if (call.mustBeOffered && !offered.includes(matcher)) {
      throw new ScriptError(
        `Step ${step}: the script calls "${matcher}", which was not offered. Offered: ${list(offered)}. ` +
          "(Use callUnknownTool to script a call to a tool that does not exist.)",
      );
    }
    return { toolName: matcher, input };
  }
  const matches = offered.filter((name) => toolNameMatches(matcher, name));
  if (matches.length !== 1) {
    throw new ScriptError(
      `Step ${step}: the pattern ${String(matcher)} matched ${matches.length === 0 ? "no offered tool" : `${matches.length} tools (${matches.join(", ")}); make it match one`}. ` +
        `Offered: ${list(offered)}`,
    );
  }
  return { toolName: matches[0]!, input };
}

/** A turn for a message: what the script made it of. */
function turnName(step: Step): string {
  if (step.kind === "turn") return step.describe;
  if (step.kind === "recorded") return `step ${step.turn.recorded.step} of the cassette ${step.turn.file}`;
  const names = step.calls.map((call) => nameOf(call.matcher)).join(" and ");
  return step.calls.length === 1 ? `a call of ${names}` : `calls of ${names}`;
}

/** A matcher as the script wrote it: `"name"` or `/pattern/`. */
function nameOf(tool: ToolNameMatcher): string {
  return typeof tool === "string" ? JSON.stringify(tool) : String(tool);
}
