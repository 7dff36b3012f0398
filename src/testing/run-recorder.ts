import type { ToolLoopEvent } from "../events/tool-loop-event.js";

/** One tool call as the model saw it. */
export interface RecordedCall {
  readonly toolName: string;
  readonly input: unknown;
  /**
   * The text the model got back: the serialized result or the error message, with the notes strategies
   * appended (a skipped provider, tools dropped for the budget).
   */
  readonly resultText: string;
  readonly isError: boolean;
}

/** One model step of a run. Steps are numbered from 1. */
export interface RecordedStep {
  readonly step: number;
  readonly toolsOffered: string[];
  readonly calls: RecordedCall[];
  readonly injected: string[];
  readonly removed: string[];
  /** The model's text at this step. */
  text: string;
}

/**
 * Builds, from a runner's events, the steps of each run it serves: attach it with
 * `runner.withObserver(recorder.observe)` (a `FakePromptRunner` has one built in). Its steps are what
 * `scoreToolUse` reads best: the tools offered at every step.
 */
export class RunRecorder {
  private readonly runs = new Map<string, RecordedStep[]>();
  private latest: string | undefined;

  readonly observe = (event: ToolLoopEvent): void => {
    let steps = this.runs.get(event.runId);
    if (!steps) {
      steps = [];
      this.runs.set(event.runId, steps);
      this.latest = event.runId;
    }
    if (event.type === "ToolLoopIteration") {
      steps.push({
        step: steps.length + 1,
        toolsOffered: [...event.toolNames],
        calls: [],
        injected: [],
        removed: [],
        text: "",
      });
      return;
    }
    const current = steps[steps.length - 1];
    if (!current) return;
    switch (event.type) {
      case "ModelResponded":
        current.text = event.text;
        break;
      case "ToolInvoked":
        current.calls.push({
          toolName: event.toolName,
          input: event.input,
          resultText: event.resultText,
          isError: false,
        });
        break;
      case "ToolFailed":
        current.calls.push({
          toolName: event.toolName,
          input: event.input,
          resultText: event.message,
          isError: true,
        });
        break;
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
    return (this.latest && this.runs.get(this.latest)) || [];
  }

  /** The steps of every run, oldest first. */
  get allRuns(): readonly (readonly RecordedStep[])[] {
    return [...this.runs.values()];
  }
}
