import type { Tracer } from "@opentelemetry/api";
import type { ToolLoopObserver } from "../events/tool-loop-event.js";
import { SpanRecorder } from "./span-recorder.js";
import type { TelemetryOptions } from "./telemetry-options.js";
import { TelemetryUnavailableError } from "./telemetry-unavailable-error.js";

/**
 * The observer that records a run as OpenTelemetry spans. `@opentelemetry/api` (an optional peer) is
 * loaded here, when the first run with telemetry starts, never by `import "entity-tools"`.
 *
 * @throws TelemetryUnavailableError when `@opentelemetry/api` is not installed.
 */
export async function telemetryObserver(options: TelemetryOptions): Promise<ToolLoopObserver> {
  let api: typeof import("@opentelemetry/api");
  try {
    api = await import("@opentelemetry/api");
  } catch (error) {
    throw new TelemetryUnavailableError(error);
  }
  const tracer = (options.tracer as Tracer | undefined) ?? api.trace.getTracer("entity-tools");
  return new SpanRecorder(api, tracer, options.recordContent === true).observe;
}
