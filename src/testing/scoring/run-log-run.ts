import type { RunView } from "../../run-log/run-log-steps.js";
import type { ProviderIdentity } from "../../tools/provider-identity.js";
import type { ToolBinding, ToolUseRun, ToolUseStep } from "./tool-use-run.js";

/**
 * A run log, read (`runView(readRunLog(text))`), as the scorer reads it: each step's tools (the log has
 * them all), the calls with the providers they ran on (per-instance tools by their binding, handle calls by
 * the provider their handle names), and when each handle reached the model. Without `recordContent` the
 * calls have no input, so expected inputs do not match. Calls a resumed run made before its first step (the
 * decided ones) are step 0. A call asked of a person that has no call record after it waits (the run
 * paused before it): it counts as made, `waiting`.
 */
export function runLogToolUse(view: RunView): ToolUseRun {
  const tools: Record<string, ToolBinding> = {};
  const handles: { provider: NonNullable<ToolBinding["provider"]>; fromStep: number }[] = [];
  for (const step of view.steps)
    for (const found of step.discovered) {
      const { provider } = found;
      for (const [name, method] of Object.entries(found.methods ?? {}))
        tools[name] = { providerClass: provider.providerClass, method, provider };
      // A handle read in a tool result is the model's to use from the next step.
      if (found.handle !== undefined) handles.push({ provider, fromStep: step.step + 1 });
    }
  const ended = new Set(view.steps.flatMap((step) => step.calls.map((call) => call.id)));
  const steps: ToolUseStep[] = view.steps.map((step) => {
    const offered = step.step === 0 ? undefined : view.toolsAt(step.step);
    // A call asked of a person with no call record after it waits: the run paused before it ran.
    const waiting = step.other.flatMap((record) =>
      record.type === "approval-asked" && !ended.has(record.id) ? [record] : [],
    );
    return {
      step: step.step,
      ...(offered ? { offered } : {}),
      calls: [
        ...step.calls.map((call) => {
          const provider = call.provider ?? tools[call.tool]?.provider;
          return {
            step: step.step,
            toolName: call.tool,
            input: call.input,
            ...(provider ? { provider } : {}),
            ...(call.ok ? {} : { failed: true }),
          };
        }),
        ...waiting.map((asked) => {
          const provider = asked.provider ?? tools[asked.tool]?.provider;
          return {
            step: step.step,
            toolName: asked.tool,
            input: asked.input,
            ...(provider ? { provider: identityOnly(provider) } : {}),
            waiting: true,
          };
        }),
      ],
    };
  });
  return { steps, tools, handles };
}

/** A provider's identity without the method an approval record adds to it. */
function identityOnly(provider: ProviderIdentity): ProviderIdentity {
  const { providerClass, id, idType } = provider;
  return { providerClass, id, idType };
}
