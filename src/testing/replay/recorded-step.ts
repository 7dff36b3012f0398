// Playing one recorded step: the check that the replayed run still offers every tool the recorded answer
// calls (the same check a scripted turn makes, on the same offered names), and the answer itself, as a
// whole result or as stream parts whichever way it was recorded.
import type {
  LanguageModelV3CallOptions,
  LanguageModelV3GenerateResult,
  LanguageModelV3StreamPart,
} from "@ai-sdk/provider";
import {
  carriedResults,
  carriedText,
  lastMessage,
  listNames,
  offeredToolNames,
  type CarriedResult,
} from "../step-matching.js";
import { resultOfParts, streamOf, streamOfParts } from "../stream-parts.js";
import type { Cassette, CassetteJson, CassetteResponse, CassetteStep } from "./cassette.js";
import { ReplayMismatchError } from "./cassette-errors.js";
import { revivedPart, revivedResponse } from "./cassette-json.js";
import { describeCut, type CassetteCut } from "./cassette-text.js";
import type { RecordedCallIndex } from "./replay-position.js";

/** What a difference between a replayed run and its recording does. */
export type OnReplayMismatch = "fail" | "continue";

/** Options of a replay. */
export interface ReplayOptions {
  /**
   * `"fail"` (default): a recorded call to a tool the replayed run does not offer at that step throws
   * `ReplayMismatchError`. `"continue"`: the difference is kept in `mismatches` and the recorded answer is
   * played anyway (the run then answers the call as it answers any unknown tool). A step past the end of
   * the recording always throws: there is no answer to play.
   */
  readonly onMismatch?: OnReplayMismatch | undefined;
}

/** A step of a cassette, where it comes from, and what to do on a difference. */
export interface RecordedTurn {
  readonly recorded: CassetteStep;
  /** The cassette's file, for messages. */
  readonly file: string;
  readonly onMismatch: OnReplayMismatch;
  /** Where `"continue"` keeps the differences. */
  readonly mismatches: ReplayMismatchError[];
  /**
   * The cassette says which results each request carried (it has `failed`: see {@link recordsRunStarts}), so a
   * step that carried none began a run, and a request that carries results there is not this recording's.
   */
  readonly startsRuns: boolean;
  /** Where the cassette's recorded calls are: what a message says the recording holds. */
  readonly index: RecordedCallIndex;
  /**
   * Calls the model playing the turn answered itself (a scripted model's turns before a cassette): their
   * results going on to a step that began a run are the same run's, not a resumed one's.
   */
  readonly answered?: ReadonlySet<string>;
}

/**
 * Whether a cassette's steps that carried no results began a run: it records which results each request
 * carried (`failed`), which cassettes recorded before that field cannot say.
 */
export function recordsRunStarts(cassette: Cassette): boolean {
  return cassette.steps.some((s) => s.request.failed !== undefined);
}

/** Checks a recorded step against the run's call `step`, then gives its answer as a whole result. */
export function playGenerate(
  turn: RecordedTurn,
  step: number,
  options: LanguageModelV3CallOptions,
): LanguageModelV3GenerateResult {
  check(turn, step, options);
  const response = turn.recorded.response;
  return response.kind === "generate" ? resultOf(response) : resultOfParts(partsOf(response));
}

/** Checks a recorded step against the run's call `step`, then gives its answer as a stream. */
export function playStream(
  turn: RecordedTurn,
  step: number,
  options: LanguageModelV3CallOptions,
): ReadableStream<LanguageModelV3StreamPart> {
  check(turn, step, options);
  const response = turn.recorded.response;
  return response.kind === "stream" ? streamOfParts(partsOf(response)) : streamOf(resultOf(response));
}

/**
 * The error for the run's call `step` past the end of a recording of `recorded` steps (`cut`: what a cut at
 * the end of its file left out) whose first step was the run's step `from` (after turns scripted before
 * it, in a scripted model). The run's steps and the recording's are told apart when they differ: a cut
 * names the recording's.
 */
export function pastEnd(
  file: string,
  step: number,
  recorded: number,
  options: LanguageModelV3CallOptions,
  cut?: CassetteCut,
  from = 1,
): ReplayMismatchError {
  const offered = offeredToolNames(options);
  const cutNote = cut ? `; ${describeCut(cut)}, so the recording may have had more` : "";
  const itsStep =
    from === 1 ? "" : `, the recording's step ${step - from + 1} (it began at the run's step ${from})`;
  // A prompt the model never answered begins a run: one more run on a replay whose recording was played.
  const anotherRun = !options.prompt.some((m) => m.role === "assistant") && step > from;
  const why = anotherRun
    ? "This call begins a run (its prompt holds no answer of the model's), after the recording was played " +
      "to its end: a replay plays its recording once, so give each run a replay of its own " +
      "(ReplayLanguageModel.fromFile, or a FakePromptRunner that loaded the cassette)"
    : "The run no longer goes as recorded: record it again";
  return new ReplayMismatchError(
    file,
    step,
    "past-end",
    [],
    offered,
    `Replay of ${file}: the run asks the model for step ${step}${itsStep}, past the end of the recording ` +
      `(${recorded} step${recorded === 1 ? "" : "s"}${cutNote}). Offered at step ${step}: ${listNames(offered)}. ` +
      `Last message: ${lastMessage(options)}. ${why}`,
  );
}

function check(turn: RecordedTurn, step: number, options: LanguageModelV3CallOptions): void {
  checkResults(turn, step, options);
  const offered = offeredToolNames(options);
  const missing = calledTools(turn.recorded.response).filter((name) => !offered.includes(name));
  if (missing.length === 0) return;
  const recordedOffered = turn.recorded.request.tools;
  const lost = recordedOffered.filter((name) => !offered.includes(name));
  const since = offered.filter((name) => !recordedOffered.includes(name)); // a renamed tool's new name
  const changes = [
    ...(lost.length > 0 ? [`no longer offered: ${lost.join(", ")}`] : []),
    ...(since.length > 0 ? [`offered since: ${since.join(", ")}`] : []),
  ];
  // Played after turns scripted before it, the recording's steps are not the run's: both are named.
  const itsStep = turn.recorded.step === step ? "" : ` (the recording's step ${turn.recorded.step})`;
  const error = new ReplayMismatchError(
    turn.file,
    step,
    "tool-not-offered",
    missing,
    offered,
    `Replay of ${turn.file}, step ${step}${itsStep}: the recording calls ${missing.join(", ")}, which this run does ` +
      `not offer at step ${step}. Offered now: ${listNames(offered)}. Offered when recorded: ` +
      `${listNames(recordedOffered)}${changes.length > 0 ? ` (${changes.join("; ")})` : ""}. ` +
      'Record the run again, or replay with { onMismatch: "continue" } to go on',
  );
  if (turn.onMismatch === "fail") throw error;
  turn.mismatches.push(error);
}

/**
 * The results the request carries against the recorded request's: a call whose result is an error now
 * and was not when recorded (a tool that throws now, a handle this runner cannot verify, a parameter
 * renamed), or the other way round. The recorded answers after it would play on as if nothing changed.
 */
function checkResults(turn: RecordedTurn, step: number, options: LanguageModelV3CallOptions): void {
  const recordedFailed = turn.recorded.request.failed;
  const carried = carriedResults(options.prompt);
  const itsStep = turn.recorded.step === step ? "" : ` (the recording's step ${turn.recorded.step})`;
  let said: string;
  if (recordedFailed === undefined) {
    // A first step (or a cassette recorded before `failed` was written): only a run's start is known.
    const foreign = carried.filter((r) => !turn.answered?.has(r.toolCallId));
    if (!turn.startsRuns || foreign.length === 0) return;
    const calls = foreign.map((r) => `${r.toolName} (call ${r.toolCallId})`).join(", ");
    said =
      `this run's request carries the results of ${calls} (a resumed run), where the recording's step ` +
      `${turn.recorded.step} began a run: those calls are not this recording's (${turn.index.held()}), so ` +
      "it cannot tell where the run stands. Replay a resumed run on the cassette that recorded its first part";
  } else {
    const differing = carried.filter((r) => r.failed !== recordedFailed.includes(r.toolCallId));
    if (differing.length === 0) return;
    said = differing.map((r) => resultDifference(r)).join("; ");
  }
  const error = new ReplayMismatchError(
    turn.file,
    step,
    "result-differs",
    [],
    offeredToolNames(options),
    `Replay of ${turn.file}, step ${step}${itsStep}: ${said}. The recorded answers after it no longer fit ` +
      'the run: fix the difference, record the run again, or replay with { onMismatch: "continue" } to go on',
  );
  if (turn.onMismatch === "fail") throw error;
  turn.mismatches.push(error);
}

function resultDifference(r: CarriedResult): string {
  const call = `${r.toolName} (call ${r.toolCallId})`;
  return r.failed
    ? `${call} got an error, where it succeeded when recorded: ${abbreviated(carriedText(r))}`
    : `${call} succeeded, where it got an error when recorded: ${abbreviated(carriedText(r))}`;
}

/** A result's text for a message: cut at 300 characters, without its closing full stop (the message adds one). */
function abbreviated(text: string): string {
  return text.length > 300 ? `${text.slice(0, 300)}…` : text.replace(/\.$/, "");
}

/** The tools a recorded answer calls (provider-executed tools are the provider's, not offered by the run). */
function calledTools(response: CassetteResponse): string[] {
  const parts = response.kind === "generate" ? response.content : response.parts;
  return parts.flatMap((p) =>
    p.type === "tool-call" && p.providerExecuted !== true ? [String(p.toolName)] : [],
  );
}

function resultOf(response: Extract<CassetteResponse, { kind: "generate" }>): LanguageModelV3GenerateResult {
  return {
    content: response.content.map((part) => revivedPart(part)),
    finishReason: response.finishReason as unknown as LanguageModelV3GenerateResult["finishReason"],
    usage: response.usage as unknown as LanguageModelV3GenerateResult["usage"],
    ...(response.providerMetadata
      ? { providerMetadata: response.providerMetadata as LanguageModelV3GenerateResult["providerMetadata"] }
      : {}),
    ...(response.response ? { response: revivedResponse(response.response as CassetteJson) } : {}),
    warnings: response.warnings as unknown as LanguageModelV3GenerateResult["warnings"],
  };
}

function partsOf(response: Extract<CassetteResponse, { kind: "stream" }>): LanguageModelV3StreamPart[] {
  return response.parts.map((part) => revivedPart(part));
}
