// What every observer of a run's restarts reported, as a user reads each: the `tools.restart` span events an
// OpenTelemetry exporter received, and the run log's `restart` records as `readRunLog`/`runView` read them.
// The counters are the result's. Each restart must be reported once by each, with the same cause.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { readRunLog, runView, type PromptRunner, type RunLogRecord } from "entity-tools";
import { memoryTracer } from "./span-tree.js";

/** The restarts each observer reported. */
export interface ReportedRestarts {
  /** The attributes of each `tools.restart` span event, in order. */
  readonly telemetry: readonly Record<string, unknown>[];
  /** The run log's `restart` records, in order, across the files the runs wrote. */
  readonly log: readonly RunLogRecord[];
}

/** `runner` with telemetry and a run log, and a reader of what they reported (which removes the log). */
export function watchRestarts<R extends PromptRunner>(
  runner: R,
): { runner: R; reported(): ReportedRestarts } {
  const { tracer, spans } = memoryTracer();
  const dir = mkdtempSync(path.join(tmpdir(), "restarts-"));
  return {
    runner: runner.withTelemetry({ tracer }).withRunLog(dir),
    reported() {
      const telemetry = spans().flatMap((span) =>
        span.events.filter((e) => e.name === "tools.restart").map((e) => ({ ...e.attributes })),
      );
      const log = readdirSync(dir)
        .filter((file) => file.endsWith(".jsonl"))
        .sort()
        .flatMap((file) => runView(readRunLog(readFileSync(path.join(dir, file), "utf8"))).steps)
        .flatMap((step) => step.other.filter((record) => record.type === "restart"));
      rmSync(dir, { recursive: true, force: true });
      return { telemetry, log };
    },
  };
}
