import type { LanguageModelV3CallOptions } from "@ai-sdk/provider";
import { AiSdkAdapter } from "../adapters/ai-sdk-adapter.js";
import { InvalidSettingError } from "../errors/entity-tools-error.js";
import type { ToolMiddleware } from "../loop/execution/tool-middleware.js";
import { PromptRunner } from "../runner/prompt-runner.js";
import {
  defaultRunnerConfig,
  type PromptRunnerOptions,
  type RunnerConfig,
} from "../runner/runner-options.js";
import type { Cassette } from "./replay/cassette.js";
import { readCassette } from "./replay/cassette-file.js";
import type { ReplayOptions } from "./replay/recorded-step.js";
import { RunRecorder, type RecordedCall, type RecordedStep } from "./run-recorder.js";
import {
  ScriptedLanguageModel,
  type ScriptedRequest,
  type ToolNameMatcher,
} from "./scripted-language-model.js";
import type { ScriptedTurn } from "./generate-result.js";
import { UnmetExpectationsError } from "./unmet-expectations-error.js";
import { toolNameMatches } from "./tool-name-matcher.js";

/** How many unplayed turns `verifyExpectations` names (a cassette left unplayed has hundreds). */
const MAX_NAMED_TURNS = 5;

/** What a stubbed tool returns instead of running: a value, or a function of the call's input. */
export type StubbedReturn = unknown;

interface Stub {
  readonly matcher: ToolNameMatcher;
  readonly value: StubbedReturn;
  uses: number;
}

/** State shared by a fake runner and every runner derived from it with `with*`. */
interface FakeState {
  readonly model: ScriptedLanguageModel;
  readonly recorder: RunRecorder;
  readonly stubs: Stub[];
}

/**
 * A `PromptRunner` for tests: the same fluent API and the real loop (discovery, validation, strategies,
 * events), driven by a {@link ScriptedLanguageModel}. Script the model's turns on it, stub tool returns,
 * run, then read what happened at each step.
 *
 * The script, stubs and recordings are shared with every runner derived from this one, so a test can
 * configure `fake.withTools(...)` and still assert on `fake`.
 */
export class FakePromptRunner extends PromptRunner {
  private state!: FakeState;

  constructor(options?: PromptRunnerOptions, config?: RunnerConfig) {
    if (config && options) {
      super(options, config); // derived: `derive` hands over the shared state
      return;
    }
    const model = new ScriptedLanguageModel();
    const state: FakeState = { model, recorder: new RunRecorder(), stubs: [] };
    const adapter = new AiSdkAdapter(model, { maxRetries: 0 });
    super(
      { adapter },
      {
        ...defaultRunnerConfig(adapter),
        observers: [state.recorder.observe],
        middleware: [stubMiddleware(state.stubs)],
      },
    );
    this.state = state;
  }

  /** The scripted model behind this runner. */
  get model(): ScriptedLanguageModel {
    return this.state.model;
  }

  /** Scripts a turn that calls one tool (exact name, or a pattern that must match one offered tool). */
  callTool(tool: ToolNameMatcher, input?: unknown): this {
    this.state.model.callTool(tool, input);
    return this;
  }

  /** Scripts a turn that calls several tools at once. */
  callTools(calls: readonly (readonly [ToolNameMatcher, unknown?])[]): this {
    this.state.model.callTools(calls);
    return this;
  }

  /** Scripts a turn that calls a tool that was not offered. */
  callUnknownTool(toolName: string, input?: unknown): this {
    this.state.model.callUnknownTool(toolName, input);
    return this;
  }

  /** Scripts a final text answer. */
  respondWithText(text: string): this {
    this.state.model.respondWithText(text);
    return this;
  }

  /** Scripts a final object answer (for `createObject`). */
  respondWithObject(value: unknown): this {
    this.state.model.respondWithObject(value);
    return this;
  }

  /** Scripts a turn computed from the request. */
  respondWith(describe: string, turn: (request: ScriptedRequest) => ScriptedTurn): this {
    this.state.model.respondWith(describe, turn);
    return this;
  }

  /**
   * Scripts the next turns from a cassette (what `recordModel` wrote): one turn per recorded model call,
   * played as `ReplayLanguageModel` plays it, so a recorded real run drives this runner's real loop, with
   * stubs and step records as usual. Further scripted turns may follow it. A call whose prompt holds the
   * cassette's recorded tool calls plays the turn after them, so a run resumed from a snapshot on a new fake
   * that loaded the same cassette goes on where it paused.
   *
   * @throws CassetteError when `cassette` is not one this version of entity-tools replays.
   */
  playCassette(cassette: Cassette, options?: ReplayOptions & { readonly file?: string | undefined }): this {
    this.state.model.playCassette(cassette, options);
    return this;
  }

  /**
   * {@link FakePromptRunner.playCassette} of the cassette file `file`.
   *
   * @throws CassetteError naming the file (and the path inside it) when it cannot be replayed.
   */
  async loadCassette(file: string, options?: ReplayOptions): Promise<this> {
    return this.playCassette(await readCassette(file), { ...options, file });
  }

  /**
   * Stubs a tool: when the model calls it (exact name or pattern), the loop gets `value` instead of running
   * the tool, and discovers providers in it as usual. A function is called with the input.
   */
  expectToolProviderReturn(tool: ToolNameMatcher, value: StubbedReturn): this {
    this.state.stubs.push({ matcher: tool, value, uses: 0 });
    return this;
  }

  /** Steps of the latest run, numbered from 1. */
  get steps(): readonly RecordedStep[] {
    return this.state.recorder.steps;
  }

  /** The steps of every run so far. */
  get runs(): readonly (readonly RecordedStep[])[] {
    return this.state.recorder.allRuns;
  }

  /** The names offered to the model at `step` (from 1) of the latest run. */
  toolsOfferedAt(step: number): string[] {
    return this.stepAt(step).toolsOffered;
  }

  /** The calls made at `step` (from 1) of the latest run, with what each returned to the model. */
  callsAt(step: number): RecordedCall[] {
    return this.stepAt(step).calls;
  }

  /** Every call of the latest run, in order. */
  get calls(): RecordedCall[] {
    return this.steps.flatMap((s) => s.calls);
  }

  /** Every tool injected during the latest run, in order. */
  get injectedToolNames(): string[] {
    return this.steps.flatMap((s) => s.injected);
  }

  /** Every tool removed during the latest run, in order. */
  get removedToolNames(): string[] {
    return this.steps.flatMap((s) => s.removed);
  }

  /** The raw calls the model received (AI SDK call options), in order. */
  get modelCalls(): readonly LanguageModelV3CallOptions[] {
    return this.state.model.calls;
  }

  /**
   * Throws if scripted turns were not played (naming the first five), stubs never used, or a cassette played with
   * `onMismatch: "continue"` differed from the run.
   *
   * @throws UnmetExpectationsError listing every problem found
   */
  verifyExpectations(): void {
    const problems: string[] = [];
    const unplayed = this.state.model.unplayedTurns;
    if (unplayed.length > 0) {
      const named = unplayed.slice(0, MAX_NAMED_TURNS).join(", ");
      const more = unplayed.length > MAX_NAMED_TURNS ? `, and ${unplayed.length - MAX_NAMED_TURNS} more` : "";
      problems.push(`${unplayed.length} scripted turn(s) were not played: ${named}${more}`);
    }
    for (const mismatch of this.state.model.mismatches) problems.push(mismatch.message);
    for (const stub of this.state.stubs) {
      if (stub.uses === 0) problems.push(`the stubbed tool ${String(stub.matcher)} was never called`);
    }
    if (problems.length > 0) throw new UnmetExpectationsError(problems);
  }

  /** A changed copy that shares this runner's script, stubs and recorder. */
  protected override derive(patch: Partial<RunnerConfig>): this {
    const next = super.derive(patch);
    next.state = this.state;
    return next;
  }

  private stepAt(step: number): RecordedStep {
    const found = this.steps[step - 1];
    if (!found)
      throw new InvalidSettingError(
        "step",
        step,
        `a step of the latest run, which has ${this.steps.length} step(s) numbered from 1`,
      );
    return found;
  }
}

function stubMiddleware(stubs: Stub[]): ToolMiddleware {
  return (call, next) => {
    const stub = stubs.find((s) => toolNameMatches(s.matcher, call.tool.name));
    if (!stub) return next();
    stub.uses++;
    return Promise.resolve(
      typeof stub.value === "function" ? (stub.value as (input: unknown) => unknown)(call.input) : stub.value,
    );
  };
}
