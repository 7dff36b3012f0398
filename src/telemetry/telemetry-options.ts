/**
 * An OpenTelemetry `Tracer` (from `@opentelemetry/api`), typed by shape only so `entity-tools`' own types
 * do not need the API installed: any tracer of a tracer provider fits.
 */
export interface TelemetryTracer {
  /** Starts a span, as `@opentelemetry/api`'s `Tracer.startSpan` does. */
  startSpan(name: string, options?: object, context?: unknown): unknown;
}

/** Options of `PromptRunner.withTelemetry`. */
export interface TelemetryOptions {
  /** The tracer spans go to; by default `@opentelemetry/api`'s global tracer provider's `entity-tools` tracer. */
  readonly tracer?: TelemetryTracer | undefined;
  /**
   * Record tool arguments and results, and the model's text, on the spans. Off by default: they may hold
   * personal or secret data.
   */
  readonly recordContent?: boolean | undefined;
}
