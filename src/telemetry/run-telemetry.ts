import type { Tracer } from "@opentelemetry/api";
import type { RunScope } from "../events/run-events.js";
import type { ToolLoopObserver } from "../events/tool-loop-event.js";
import { SpanRecorder } from "./span-recorder.js";
import type { TelemetryOptions } from "./telemetry-options.js";
import { TelemetryUnavailableError } from "./telemetry-unavailable-error.js";

/** What records runs as spans: the observer of their events, and the scope that makes a span active. */
export interface RunTelemetry {
  readonly observe: ToolLoopObserver;
  readonly scope: RunScope;
}

/**
 * The observer that records a run as OpenTelemetry spans, and its scope. `@opentelemetry/api` (an optional peer) is
 * loaded here, when the first run with telemetry starts, never by `import "entity-tools"`.
 *
 * @throws TelemetryUnavailableError when `@opentelemetry/api` is not installed.
 */
export async function runTelemetry(options: TelemetryOptions): Promise<RunTelemetry> {
  let api: typeof import("@opentelemetry/api");
  try {
    api = await import("@opentelemetry/api");
  } catch (error) {
    throw new TelemetryUnavailableError(error);
  }
  const tracer = (options.tracer as Tracer | undefined) ?? api.trace.getTracer("entity-tools");
  const recorder = new SpanRecorder(api, tracer, options.recordContent === true);
  return { observe: recorder.observe, scope: recorder.scope };
}
