import type { ToolLoopEvent, ToolProviderDiscoveredEvent } from "../events/tool-loop-event.js";
import { joinedStepText } from "../events/step-responses.js";
import { plainIdentity } from "../tools/provider-binding.js";
import type { ProviderIdentity, ProviderToolIdentity } from "../tools/provider-identity.js";

/** One tool call as the model saw it. */
export interface RecordedCall {
  /** The tool the model called, by name. */
  readonly toolName: string;
  /** The input it gave. */
  readonly input: unknown;
  /**
   * The text the model got back: the serialized result or the error message, with the notes strategies
   * appended (a skipped provider, tools dropped for the budget).
   */
  readonly resultText: string;
  /** True when the call failed and the model read an error message. */
  readonly isError: boolean;
  /**
   * The provider the call ran on (or was meant for): a per-instance tool's, or the one its handle names,
   * as the runner checked it (the event's `provider`). Absent for tools of no provider, and for a handle
   * the runner refused (changed, another key's, another class's, not a handle): it names no provider.
   */
  readonly provider?: ProviderIdentity;
}

/** A call the model made that waits for a person's decision: the run paused before it ran. */
export interface RecordedWaitingCall {
  /** The id a decision names (`resume(snapshot, { approvals: { [approvalId]: … } })`). */
  readonly approvalId: string;
  /** The tool the model called, by name. */
  readonly toolName: string;
  /** The input it gave. */
  readonly input: unknown;
  /** The provider the call is for: a per-instance tool's, or the one its (checked) handle names. */
  readonly provider?: ProviderIdentity;
}

/** A provider a step's calls discovered. */
export interface RecordedDiscovery {
  /** Which provider (class, id). */
  readonly provider: ProviderIdentity;
  /** In handles mode: its handle, as the model read it. */
  readonly handle?: string;
  /** Per-instance binding: the tools bound to it, each with the method it runs (tool name → method). */
  readonly tools: Readonly<Record<string, string>>;
}

/** One model step of a run. Steps are numbered from 1. */
export interface RecordedStep {
  /**
   * The step's place among the steps recorded for the run, from 1 (a restart's steps go on counting), as
   * `toolsOfferedAt(step)` takes it. A run that goes on from a snapshot of a run this recorder saw (a
   * resume, a conversation's next turn: `RunStarted.continues` names it) goes on in that run's steps, as
   * events number them (`ToolLoopIteration.iteration`); the calls it runs before its first model call are
   * the paused step's. One this recorder did not see (another process, another recorder) starts at 1
   * here, and those calls are not kept.
   */
  readonly step: number;
  /** The tools offered to the model at this step, by name. */
  readonly toolsOffered: string[];
  /** The step's tool calls, in the order they ended. */
  readonly calls: RecordedCall[];
  /**
   * The step's calls that wait for a person's decision (the run paused before them). A resume of the run
   * on this recorder moves each to `calls` when it ends.
   */
  readonly waiting: RecordedWaitingCall[];
  /** Tools this step's calls added, by name (offered from the next step). */
  readonly injected: string[];
  /** Tools taken away during this step, by name. */
  readonly removed: string[];
  /** Providers this step's calls discovered, in order. */
  readonly discovered: RecordedDiscovery[];
  /**
   * The model's text at this step. On a conversation backend, a turn a stop ended reports its text in a
   * second `ModelResponded` of its last step: the texts of the step's responses, blank-line separated.
   */
  text: string;
}

/** A run's steps, and where its calls that wait for a person were made. */
interface RunBindings {
  readonly steps: RecordedStep[];
  /** The step each call still waiting for a person was made at, by approval id. */
  readonly waitingAt: Map<string, RecordedStep>;
}

/**
 * Builds, from a runner's events, the steps of each run it serves: attach it with
 * `runner.withObserver(recorder.observe)` (a `FakePromptRunner` has one built in). Its steps are what
 * `scoreToolUse` reads best: the tools offered at every step, and which provider each call ran on.
 */
export class RunRecorder {
  /** Each run by the `runId` of each of its parts (a resumed run's parts share one). */
  private readonly runs = new Map<string, RunBindings>();
  /** The parts a resume went on from: a second resume of one snapshot is a run of its own. */
  private readonly continued = new Set<string>();
  /** Parts that go on from a run recorded here, until their first step says how (see `goOn`). */
  private readonly goingOn = new Map<string, string>();
  private latest: string | undefined;

  /** The observer to attach: `runner.withObserver(recorder.observe)`. */
  readonly observe = (event: ToolLoopEvent): void => {
    let run = this.runs.get(event.runId) ?? this.begin(event);
    if (event.type === "ToolLoopIteration" && this.goingOn.has(event.runId))
      run = this.goOn(event.runId, run, event.iteration);
    const { steps } = run;
    if (event.type === "ToolLoopIteration") {
      steps.push({
        step: steps.length + 1,
        toolsOffered: [...event.toolNames],
        calls: [],
        waiting: [],
        injected: [],
        removed: [],
        discovered: [],
        text: "",
      });
      return;
    }
    const current = steps[steps.length - 1];
    if (!current) return;
    switch (event.type) {
      case "ModelResponded":
        // A turn a stop ended reports its text in a second response of its last step: it joins, never replaces.
        current.text = joinedStepText(current.text, event.text);
        break;
      case "ApprovalRequested": {
        // Asked again (a resume that left it undecided): it waits where it was made.
        if (run.waitingAt.has(event.approvalId)) break;
        const provider = identityOf(event.provider);
        const { approvalId, toolName, input } = event;
        current.waiting.push({ approvalId, toolName, input, ...(provider ? { provider } : {}) });
        run.waitingAt.set(approvalId, current);
        break;
      }
      case "ToolInvoked":
      case "ToolFailed": {
        const failed = event.type === "ToolFailed";
        endWaiting(run, event.toolCallId); // a decided call, now run (or refused)
        const provider = identityOf(event.provider);
        current.calls.push({
          toolName: event.toolName,
          input: event.input,
          resultText: failed ? event.message : event.resultText,
          isError: failed,
          ...(provider ? { provider } : {}),
        });
        break;
      }
      case "ToolProviderDiscovered": {
        current.discovered.push(discoveryOf(event));
        break;
      }
      case "ToolsInjected":
        // One by one: a spread of a discovery's 100 000 names would overflow the stack.
        for (const name of event.toolNames) current.injected.push(name);
        break;
      case "ToolsRemoved":
        for (const name of event.toolNames) current.removed.push(name);
        break;
      default:
        break;
    }
  };

  /** The steps of the most recent run (restarts included, in order). */
  get steps(): readonly RecordedStep[] {
    return (this.latest && this.runs.get(this.latest)?.steps) || [];
  }

  /** The steps of every run, oldest first (a resumed run is one run with the part before its pause). */
  get allRuns(): readonly (readonly RecordedStep[])[] {
    return [...new Set(this.runs.values())].map((run) => run.steps);
  }

  /**
   * The run of a part's first event (its `RunStarted`): the run recorded here that the part `continues`
   * (its snapshot's run), unless a resume went on from that snapshot already; else a run of its own. The
   * calls a resume runs before its first model call (the decided ones) are that run's last step's.
   */
  private begin(event: ToolLoopEvent): RunBindings {
    const from = event.type === "RunStarted" ? event.continues : undefined;
    const earlier = from === undefined || this.continued.has(from) ? undefined : this.runs.get(from);
    if (earlier) this.goingOn.set(event.runId, from!);
    const run = earlier ?? newRun();
    this.runs.set(event.runId, run);
    this.latest = event.runId;
    return run;
  }

  /**
   * A part that goes on from a run recorded here, at its first step (numbered `iteration` by the events):
   * a resume goes on counting the run's steps, and is that run going on; a conversation's next turn, a new
   * prompt, counts from 1 again, and is a run of its own (its calls' events name their providers, those
   * the earlier turns bound too). (The run's steps here may be fewer than the events': a run whose pause
   * this recorder did not see.)
   */
  private goOn(runId: string, earlier: RunBindings, iteration: number): RunBindings {
    const from = this.goingOn.get(runId)!;
    this.goingOn.delete(runId);
    if (iteration > 1 || earlier.steps.length === 0) {
      this.continued.add(from); // a second resume of the same snapshot is another branch: its own run
      return earlier;
    }
    const turn = newRun();
    this.runs.delete(runId); // re-added last, so that `allRuns` lists it after the earlier turns
    this.runs.set(runId, turn);
    return turn;
  }
}

function newRun(): RunBindings {
  return { steps: [], waitingAt: new Map() };
}

function discoveryOf(event: ToolProviderDiscoveredEvent): RecordedDiscovery {
  const { providerClass, id, idType } = event.identity;
  return {
    provider: { providerClass, id, idType },
    ...(event.handle ? { handle: event.handle } : {}),
    tools: { ...event.methods },
  };
}

/** A waiting call that ended: it leaves its step's `waiting` (its `ToolInvoked` or `ToolFailed` is a call). */
function endWaiting(run: RunBindings, approvalId: string): void {
  const step = run.waitingAt.get(approvalId);
  if (!step) return;
  run.waitingAt.delete(approvalId);
  step.waiting.splice(
    step.waiting.findIndex((w) => w.approvalId === approvalId),
    1,
  );
}

/**
 * The provider an event names for its call, without the method: the runner's own reading (a per-instance
 * tool's binding, a handle it verified), never the handle text the model sent, which a forged or garbled
 * handle would credit to a provider it does not stand for.
 */
function identityOf(provider: ProviderToolIdentity | undefined): ProviderIdentity | undefined {
  return provider && plainIdentity(provider);
}
