import { callBackend } from "./call-backend.js";
import type { ModelAdapter, ModelStreamPart } from "../ports/model-port.js";
import type { RunSession } from "../session/run-session.js";
import type { RunEnd } from "../session/step-outcome.js";
import { DistinctCallIds } from "../session/distinct-call-ids.js";

/**
 * Who hears a streamed run's model parts (step backends stream them; conversation backends give each call
 * and a turn's whole text) and step ends (the run session tells them, on every backend); a run's events
 * tell the rest. What `onModelPart` returns, and `ready`, resolve when the run may go on: a streamed
 * run's reader that is behind makes it wait (backpressure), before each part and each step.
 */
export interface StepListener {
  readonly onModelPart?: (part: ModelStreamPart) => void | Promise<void>;
  readonly onStepFinish?: (iteration: number) => void;
  readonly ready?: () => Promise<void>;
}

/**
 * The driver for step backends (the AI SDK): we call the model one step at a time and hand each response
 * to the run session, which runs the tools, applies what strategies changed, and says what happens next.
 */
export async function driveSteps(
  adapter: ModelAdapter,
  session: RunSession,
  listener?: StepListener,
): Promise<RunEnd> {
  try {
    const start = await session.resumeStart();
    if (start.type !== "continue") return session.end(start);
    const ids = new DistinctCallIds();
    for (;;) {
      await listener?.ready?.();
      await session.refreshSources();
      const tools = session.beginIteration();
      const request = {
        system: session.system,
        messages: session.run.history,
        tools,
        signal: session.signal,
      };
      const onPart = listener?.onModelPart;
      const ask =
        onPart && adapter.stream ? () => adapter.stream!(request, onPart) : () => adapter.step(request);
      const started = performance.now();
      const answer = await session.untilAborted(callBackend(() => session.inStep(ask), session.signal));
      // The conversation goes back to the provider: no two of its calls may share an id.
      const { response, repeats } = ids.distinct(answer, session.run.history);
      session.recordResponse(response, performance.now() - started);
      const next =
        response.toolCalls.length === 0
          ? session.handleFinalAnswer(response.text)
          : (await session.handleToolCalls(response.toolCalls, repeats)).next;
      if (next.type !== "continue") return session.end(next);
    }
  } catch (error) {
    throw session.fail(error);
  }
}
