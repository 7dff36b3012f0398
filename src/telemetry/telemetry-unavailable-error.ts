import { EntityToolsError } from "../errors/entity-tools-error.js";

/** `withTelemetry` was asked for spans and `@opentelemetry/api` could not be loaded. */
export class TelemetryUnavailableError extends EntityToolsError {
  /** This class's name, written out so that a minified bundle keeps it. */
  static override readonly errorName: string = "TelemetryUnavailableError";

  constructor(cause: unknown) {
    super(
      `withTelemetry needs the package @opentelemetry/api, which could not be loaded (${String(cause)}). ` +
        "Install it (npm install @opentelemetry/api) next to your OpenTelemetry SDK.",
      { cause },
    );
  }
}
