// A run log at the scale the viewer must handle, written by the real writer from a run's events (made up
// here, so the file takes a fraction of a second rather than a 2 000-step run): step 1 finds 10 000
// customers in handles mode, and each later step calls one of them, discovering a new per-instance provider
// every tenth step (its tools added, the oldest removed by the budget).
import path from "node:path";
import type { RunEventInit, ToolLoopEvent } from "../../src/events/tool-loop-event.js";
import { newRunId } from "../../src/events/run-id.js";
import { runLogTarget, startRunLog } from "../../src/run-log/run-log.js";

class Customer {}

/** Writes the run into `dir`; returns its file name. */
export function writeLongRun(dir: string, steps = 2_000, providers = 10_000): string {
  const recorder = startRunLog(runLogTarget(dir), {
    id: newRunId(),
    kind: "run",
    prompt: [{ role: "user", content: "Which customer spends most?" }],
    onFailure: (file, message) => {
      throw new Error(`${file}: ${message}`);
    },
  });
  const emit = (event: RunEventInit) => recorder.observe({ ...event, runId: "run-long" } as ToolLoopEvent);
  const usage = { inputTokens: 3_000, outputTokens: 40, cachedInputTokens: 2_800, reasoningTokens: 0 };
  const tools = ["findCustomers", "customer_getAverageSpend"];
  emit({ type: "RunStarted", resumed: false });
  for (let step = 1; step <= steps; step++) {
    emit({ type: "ToolLoopIteration", iteration: step, toolNames: [...tools] });
    const toolName = step === 1 ? "findCustomers" : "customer_getAverageSpend";
    const input = step === 1 ? { text: "" } : { handle: `Customer:c${step % providers}~mac` };
    emit({
      type: "ModelResponded",
      iteration: step,
      text: "",
      toolCalls: [{ toolName, input }],
      usage,
      durationMs: 3,
    });
    const toolCallId = `call-${step}`;
    emit({ type: "ToolCallStarted", iteration: step, toolCallId, toolName, input });
    if (step === 1)
      for (let i = 0; i < providers; i++)
        emit({
          type: "ToolProviderDiscovered",
          providerClass: Customer,
          instanceId: `c${i}`,
          identity: { providerClass: "Customer", id: `c${i}`, idType: "string" },
          toolCallId,
          exposedTools: ["customer_getAverageSpend"],
          replacedEarlierInstance: false,
          renamedTools: [],
          definitionTokens: {},
          handle: `Customer:c${i}~mac`,
          delivery: "inline",
        });
    if (step % 10 === 0) {
      const fresh = [`vip_${step}_getOffers`];
      tools.push(...fresh);
      emit({ type: "ToolsInjected", toolNames: fresh, triggeredBy: toolName, toolCallId });
      if (tools.length > 12)
        emit({ type: "ToolsRemoved", toolNames: tools.splice(2, 1), reason: "budget", toolCallId });
    }
    const resultText = step === 1 ? `${providers} customers` : `{"amount":${step},"currency":"USD"}`;
    // A handle tool's call names the provider its handle names, as the executor's events do.
    const provider = { providerClass: "Customer", id: `c${step % providers}`, idType: "string" as const };
    const on = step === 1 ? {} : { provider: { ...provider, method: "getAverageSpend" } };
    emit({
      type: "ToolInvoked",
      iteration: step,
      toolCallId,
      toolName,
      input,
      resultText,
      durationMs: 1,
      ...on,
    });
  }
  emit({
    type: "RunFinished",
    status: "completed",
    totalIterations: steps,
    iterations: steps,
    usage,
    durationMs: 1,
  });
  recorder.finish();
  return path.basename(recorder.path);
}
