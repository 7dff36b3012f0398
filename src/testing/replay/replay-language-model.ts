import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3GenerateResult,
  LanguageModelV3StreamResult,
} from "@ai-sdk/provider";
import type { Cassette } from "./cassette.js";
import type { ReplayMismatchError } from "./cassette-errors.js";
import { readCassette } from "./cassette-file.js";
import type { CassetteCut } from "./cassette-text.js";
import { checkedOnce } from "./checked-cassettes.js";
import { RecordedCallIndex } from "./replay-position.js";
import {
  pastEnd,
  playGenerate,
  playStream,
  type OnReplayMismatch,
  recordsRunStarts,
  type RecordedTurn,
  type ReplayOptions,
} from "./recorded-step.js";

/**
 * An AI SDK `LanguageModel` that plays a cassette (what {@link recordModel} wrote), one recorded call per
 * model call, with no network: a run on it goes as the recorded run went, as long as it asks what the
 * recording has. It answers as the recorded model (`provider`, `modelId`), so deferred delivery takes the
 * same form. At each step it checks that the run offers every tool the recorded answer calls; a call past
 * the end of the recording, or a recorded call to a tool the run does not offer at that step, throws
 * `ReplayMismatchError` naming the step and the difference (the run fails with it as its cause), unless
 * `onMismatch: "continue"` (see {@link ReplayOptions}); so does a call whose result is an error where the
 * recorded one was not, or the other way round. A recording made with `run` replays under `stream` and
 * the other way round. Each call plays the step after the recorded calls its prompt holds last (their ids
 * stay in the conversation), so a run resumed from a snapshot on a replay of its own goes on where it
 * paused; a prompt with none plays the step after the one played last.
 */
export class ReplayLanguageModel implements LanguageModelV3 {
  /** The AI SDK model spec it implements: `"v3"`. */
  readonly specificationVersion = "v3";
  /** The recorded model's provider (`openai.responses`). */
  readonly provider: string;
  /** The recorded model's id. */
  readonly modelId: string;
  /** None: the AI SDK downloads a URL part and passes its data. */
  readonly supportedUrls = {};
  /** Every call the model received, in order. */
  readonly calls: LanguageModelV3CallOptions[] = [];
  /** With `onMismatch: "continue"`: every difference found, in order (otherwise the first one is thrown). */
  readonly mismatches: ReplayMismatchError[] = [];
  /** The cassette's file, or `(in memory)`. */
  readonly file: string;
  private readonly onMismatch: OnReplayMismatch;
  /** What a cut at the end of the cassette's file left out (see `readCassette`). */
  private readonly cut: CassetteCut | undefined;
  /** Where a call's prompt says the run stands in the recording. */
  private readonly index: RecordedCallIndex;
  /** The recorded step the next call plays, unless its prompt says otherwise. */
  private next = 1;
  /** The cassette says which results each request carried: a step that carried none began a run. */
  private readonly startsRuns: boolean;

  /**
   * Plays `cassette`, checked first unless `readCassette` or `parseCassette` gave it (they checked it).
   * `file` names it in messages (default: the file it was read from, or `(in memory)`).
   *
   * @throws CassetteError when `cassette` is not one this version of entity-tools replays.
   */
  constructor(
    /** The cassette played. */
    readonly cassette: Cassette,
    options: ReplayOptions & { readonly file?: string | undefined } = {},
  ) {
    const read = checkedOnce(cassette, options.file ?? "(in memory)");
    this.file = options.file ?? read.file ?? "(in memory)";
    this.cut = read.cut;
    this.provider = cassette.model.provider;
    this.modelId = cassette.model.modelId;
    this.onMismatch = options.onMismatch ?? "fail";
    this.index = new RecordedCallIndex(cassette.steps);
    this.startsRuns = recordsRunStarts(cassette);
  }

  /**
   * A replay of the cassette file `file`, read by `readCassette` (a file cut while a call was being added
   * is played up to its last whole call, and a step past it fails saying what was cut).
   *
   * @throws CassetteError naming the file (and the path inside it) when it cannot be replayed.
   */
  static async fromFile(file: string, options: ReplayOptions = {}): Promise<ReplayLanguageModel> {
    return new ReplayLanguageModel(await readCassette(file), { ...options, file });
  }

  /** Recorded calls after the last one played. */
  get remainingSteps(): number {
    return Math.max(0, this.cassette.steps.length - (this.next - 1));
  }

  /** Plays the next recorded call, after checking the run offers every tool it calls. */
  async doGenerate(options: LanguageModelV3CallOptions): Promise<LanguageModelV3GenerateResult> {
    const step = this.stepOf(options);
    return playGenerate(this.turn(step, options), step, options);
  }

  /** Plays the next recorded call as a stream, after the same check. */
  async doStream(options: LanguageModelV3CallOptions): Promise<LanguageModelV3StreamResult> {
    const step = this.stepOf(options);
    return { stream: playStream(this.turn(step, options), step, options) };
  }

  /**
   * The recorded step a call plays: the one after the recorded calls its prompt holds last (a run resumed
   * from a snapshot on this replay goes on where it paused), else the one after the step played last.
   */
  private stepOf(options: LanguageModelV3CallOptions): number {
    this.calls.push(options);
    const step = this.index.stepAfter(options.prompt) ?? this.next;
    this.next = step + 1;
    return step;
  }

  private turn(step: number, options: LanguageModelV3CallOptions): RecordedTurn {
    const recorded = this.cassette.steps[step - 1];
    if (!recorded) throw pastEnd(this.file, step, this.cassette.steps.length, options, this.cut);
    const { file, onMismatch, mismatches, startsRuns, index } = this;
    return { recorded, file, onMismatch, mismatches, startsRuns, index };
  }
}
