// The demo's `--trace`: the run is written as a run log (withRunLog), and the Mermaid diagram is drawn from
// that log, read back with the library's own reader: what the viewer shows and what the diagram shows are
// the same record of the run.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { readRunLog, runView } from "entity-tools";
import type { TraceEntry } from "./trace-recorder.js";

/** The newest run file of a run log folder. */
export function newestRunFile(dir: string): string {
  const files = readdirSync(dir)
    .filter((f) => f.endsWith(".jsonl"))
    .sort();
  if (files.length === 0) throw new Error(`no run log in ${dir}`);
  return path.join(dir, files.at(-1)!);
}

/** A logged run as the trace's entries: each step's request, the model's text and calls, results, changes. */
export function traceOfRunLog(file: string): TraceEntry[] {
  const view = runView(readRunLog(readFileSync(file, "utf8")));
  const entries: TraceEntry[] = [];
  for (const step of view.steps) {
    if (step.step > 0) {
      const tools = view.toolsAt(step.step) ?? [];
      const fresh = step.step === 1 ? tools : (step.added ?? []).map((c) => c.tool);
      entries.push({ kind: "request", step: step.step, tools, fresh });
    }
    if (step.response?.text?.trim()) entries.push({ kind: "text", text: step.response.text });
    for (const call of step.calls) {
      entries.push({ kind: "call", toolName: call.tool, input: call.input ?? {} });
      entries.push({ kind: "result", toolName: call.tool, text: call.result ?? "", isError: !call.ok });
    }
    for (const record of step.other) {
      if (record.type === "added")
        entries.push({ kind: "injected", toolNames: record.tools, via: record.byTool });
      if (record.type === "removed")
        entries.push({ kind: "removed", toolNames: record.tools, reason: record.reason });
    }
  }
  return entries;
}
