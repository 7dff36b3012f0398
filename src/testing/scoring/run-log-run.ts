import { EntityToolsError } from "../../errors/entity-tools-error.js";
import type { CallRecord, ApprovalAskedRecord } from "../../run-log/run-log-format.js";
import type { RunView, StepView } from "../../run-log/run-log-steps.js";
import { cutOf } from "../../run-log/cut-value.js";
import type { ProviderIdentity } from "../../tools/provider-identity.js";
import type { ToolBinding, ToolUseCall, ToolUseRun, ToolUseStep } from "./tool-use-run.js";

/**
 * A run log, read (`runView(readRunLog(text))`), as the scorer reads it: each step's tools (the log has
 * them all), the calls with the providers they ran on (per-instance tools by their binding, handle calls by
 * the provider their handle names), and when each handle reached the model. Without `recordContent` the
 * calls have no input, so expected inputs do not match; nor has a call whose input the log cut
 * (`maxValueChars`): its start and a note are no input a call was made with. Steps are numbered as the run
 * numbers them (a resumed run's file goes on from the paused part's: its `iteration`), and the calls a
 * resumed run made before its first step (the decided ones) are the step before it: the paused step, which
 * made them. A call asked of a person that has no call record after it waits (the run paused before it): it
 * counts as made, `waiting`. The files of one run paused and resumed, given in order, are read as that one
 * run.
 *
 * @throws EntityToolsError when a file after the first does not go on from the one before it (another run,
 * the files out of order, or a conversation's next turn, whose steps count from 1 again)
 */
export function runLogToolUse(views: readonly RunView[]): ToolUseRun {
  checkOneRun(views);
  const tools: Record<string, ToolBinding> = {};
  const handles: { provider: ProviderIdentity; fromStep: number }[] = [];
  const ended = new Set(views.flatMap((view) => view.steps.flatMap((step) => step.calls.map((c) => c.id))));
  const steps = new Map<number, { offered?: readonly string[]; calls: ToolUseCall[] }>();
  for (const view of views) {
    const runStep = runStepOf(view);
    for (const step of view.steps) {
      const at = runStep(step);
      for (const found of step.discovered) {
        const { provider } = found;
        for (const [name, method] of Object.entries(found.methods ?? {}))
          tools[name] = { providerClass: provider.providerClass, method, provider };
        // A handle read in a tool result is the model's to use from the next step.
        if (found.handle !== undefined) handles.push({ provider, fromStep: at + 1 });
      }
    }
    for (const step of view.steps) {
      const at = runStep(step);
      let into = steps.get(at);
      if (!into) steps.set(at, (into = { calls: [] }));
      if (step.step !== 0) into.offered = view.toolsAt(step.step);
      const { calls } = into;
      for (const call of step.calls) calls.push(callOf(call, at, tools));
      // A call asked of a person with no call record after it waits: the run paused before it ran.
      for (const record of step.other)
        if (record.type === "approval-asked" && !ended.has(record.id))
          calls.push(waitingOf(record, at, tools));
    }
  }
  const ordered: ToolUseStep[] = [...steps.entries()]
    .sort(([a], [b]) => a - b)
    .map(([step, { offered, calls }]) => ({ step, ...(offered ? { offered } : {}), calls }));
  return { steps: ordered, tools, handles };
}

/**
 * Checks that each file goes on from the one before it, by the run identity their headers name (`id`,
 * `continues`): merged by step number, two runs' files (or one's out of order) would mix their steps.
 * Files whose header is missing (a damaged first line) cannot say, and are taken as given.
 */
function checkOneRun(views: readonly RunView[]): void {
  for (let i = 1; i < views.length; i++) {
    const [before, file] = [views[i - 1]!.header, views[i]!.header];
    if (!before || !file) continue;
    const why =
      file.kind === "continue"
        ? `is a conversation's next turn (kind "continue"): a run of its own, whose steps count from 1 again; score it alone`
        : file.continues === undefined
          ? `begins a run (it goes on from none), so it cannot follow the run ${before.id}`
          : file.continues !== before.id
            ? `goes on from the run ${file.continues}, not from the run ${before.id} given before it`
            : undefined;
    if (why)
      throw new EntityToolsError(
        `scoreToolUse reads the run logs of one run paused and resumed, in order: the run log ${file.id} ` +
          `(number ${i + 1} of ${views.length}) ${why}.`,
      );
  }
}

/**
 * A file's step as the run numbers it: its `iteration`; step 0 (what a resumed run did before its first
 * model call) is the step before the file's first one, or 0 in a file with no step.
 */
function runStepOf(view: RunView): (step: StepView) => number {
  const first = view.steps.find((s) => s.step !== 0);
  const before = first ? (first.record?.iteration ?? first.step) - 1 : 0;
  return (step) => (step.step === 0 ? before : (step.record?.iteration ?? step.step));
}

function callOf(call: CallRecord, step: number, tools: Readonly<Record<string, ToolBinding>>): ToolUseCall {
  const provider = call.provider ?? tools[call.tool]?.provider;
  return {
    step,
    toolName: call.tool,
    input: cutOf(call, "input") ? undefined : call.input,
    ...(provider ? { provider } : {}),
    ...(call.ok ? {} : { failed: true }),
  };
}

function waitingOf(
  asked: ApprovalAskedRecord,
  step: number,
  tools: Readonly<Record<string, ToolBinding>>,
): ToolUseCall {
  const provider = asked.provider ?? tools[asked.tool]?.provider;
  return {
    step,
    toolName: asked.tool,
    input: cutOf(asked, "input") ? undefined : asked.input,
    ...(provider ? { provider: identityOnly(provider) } : {}),
    waiting: true,
  };
}

/** A provider's identity without the method an approval record adds to it. */
function identityOnly(provider: ProviderIdentity): ProviderIdentity {
  const { providerClass, id, idType } = provider;
  return { providerClass, id, idType };
}
