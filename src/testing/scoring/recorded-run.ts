import type { RecordedStep } from "../run-recorder.js";
import type { ToolBinding, ToolUseRun } from "./tool-use-run.js";

/**
 * A `RunRecorder`'s (or `FakePromptRunner`'s) steps as the scorer reads them: each step's tools, the calls
 * with their providers, the per-instance tools' bindings, and when each handle reached the model.
 */
export function recordedToolUse(steps: readonly RecordedStep[]): ToolUseRun {
  const tools: Record<string, ToolBinding> = {};
  const handles: { provider: ToolBinding["provider"] & object; fromStep: number }[] = [];
  for (const step of steps) {
    for (const found of step.discovered ?? []) {
      for (const [name, method] of Object.entries(found.tools))
        tools[name] = { providerClass: found.provider.providerClass, method, provider: found.provider };
      // A handle read in a tool result is the model's to use from the next step.
      if (found.handle) handles.push({ provider: found.provider, fromStep: step.step + 1 });
    }
  }
  return {
    steps: steps.map((s) => ({
      step: s.step,
      offered: s.toolsOffered,
      calls: [
        ...s.calls.map((c) => ({
          step: s.step,
          toolName: c.toolName,
          input: c.input,
          ...(c.provider ? { provider: c.provider } : {}),
          ...(c.isError ? { failed: true } : {}),
        })),
        // Calls the model made that wait for a person (steps built by hand may not list any).
        ...(s.waiting ?? []).map((c) => ({
          step: s.step,
          toolName: c.toolName,
          input: c.input,
          ...(c.provider ? { provider: c.provider } : {}),
          waiting: true,
        })),
      ],
    })),
    tools,
    handles,
  };
}
