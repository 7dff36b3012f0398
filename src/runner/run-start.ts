// Where a run starts (a prompt, `continueFrom`, `resume`) and what a finished run gives back as a value.
import type { ModelMessage } from "ai";
import { checkDecisions } from "../loop/execution/approval-gate.js";
import type { RunSnapshot } from "../loop/snapshot/run-snapshot.js";
import { ApprovalRequiredError } from "./approval-required-error.js";
import type { RunSetup } from "./execute-run.js";
import type { ResumeOptions, RunOptions } from "./runner-options.js";
import type { ToolLoopResult } from "./tool-loop-result.js";

/** The part of a run's setup that says where it starts. */
export type RunStart = Pick<RunSetup, "messages" | "resumeFrom" | "resume">;

/** Where a run starts: from the prompt, or from `continueFrom`'s snapshot with the prompt as its next message. */
export function startOf(prompt: string | readonly ModelMessage[], options: RunOptions<unknown>): RunStart {
  const messages: ModelMessage[] =
    typeof prompt === "string" ? [{ role: "user", content: prompt }] : [...prompt];
  if (options.continueFrom === undefined) return { messages, resumeFrom: options.visibility };
  return {
    messages: [],
    resume: {
      snapshot: options.continueFrom,
      approvals: {},
      resolveProvider: options.resolveProvider,
      followUp: messages,
    },
  };
}

/** Where a resumed run starts: the snapshot and the decisions (refused, before anything runs, unless each is one). */
export function resumeOf(snapshot: RunSnapshot, options: ResumeOptions<unknown>): RunStart {
  checkDecisions(options.approvals);
  return {
    messages: [],
    resume: { snapshot, approvals: options.approvals ?? {}, resolveProvider: options.resolveProvider },
  };
}

/** A run's answer, or the typed error of a run that is waiting for approval. */
export function completed<T>(run: ToolLoopResult<T>): T {
  if (run.status === "awaiting-approval") throw new ApprovalRequiredError(run);
  return run.result;
}
