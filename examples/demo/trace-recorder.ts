import { READ_SECTION, type ToolLoopEvent } from "entity-tools";

/** One line of a run's story, in the order it happened. */
export type TraceEntry =
  | {
      readonly kind: "request";
      readonly step: number;
      readonly tools: readonly string[];
      readonly fresh: readonly string[];
    }
  | { readonly kind: "call"; readonly toolName: string; readonly input: unknown }
  | { readonly kind: "result"; readonly toolName: string; readonly text: string; readonly isError: boolean }
  | { readonly kind: "injected"; readonly toolNames: readonly string[]; readonly via: string }
  | { readonly kind: "removed"; readonly toolNames: readonly string[]; readonly reason: string }
  | { readonly kind: "text"; readonly text: string };

/**
 * Turns a run's events into trace entries as they happen and hands each to `onEntry` (the console story;
 * `--trace`'s diagram is drawn from the run log instead, see log-trace.ts).
 */
export class TraceRecorder {
  private offered = new Set<string>();
  private expandedSection: string | undefined;
  private readonly changes: TraceEntry[] = [];

  constructor(private readonly onEntry: (entry: TraceEntry) => void = () => {}) {}

  readonly observe = (event: ToolLoopEvent): void => {
    switch (event.type) {
      case "ToolLoopIteration": {
        this.flushChanges();
        const fresh = event.toolNames.filter((n) => !this.offered.has(n));
        this.offered = new Set(event.toolNames);
        return this.add({ kind: "request", step: event.iteration, tools: event.toolNames, fresh });
      }
      case "ModelResponded":
        if (event.text.trim()) this.add({ kind: "text", text: event.text });
        for (const c of event.toolCalls) this.add({ kind: "call", toolName: c.toolName, input: c.input });
        return;
      case "ToolInvoked":
        this.add({ kind: "result", toolName: event.toolName, text: event.resultText, isError: false });
        return this.flushChanges();
      case "ToolFailed":
        return this.add({ kind: "result", toolName: event.toolName, text: event.message, isError: true });
      case "VisibilityExpanded":
        this.expandedSection = event.sectionKey;
        return;
      case "ToolsInjected": {
        // A section read announces itself just before the tools it unlocks are injected.
        const section = event.triggeredBy === READ_SECTION ? this.expandedSection : undefined;
        this.expandedSection = undefined;
        this.changes.push({
          kind: "injected",
          toolNames: event.toolNames,
          via: section ? `section ${section}` : event.triggeredBy,
        });
        return;
      }
      case "ToolsRemoved":
        this.changes.push({ kind: "removed", toolNames: event.toolNames, reason: event.reason });
        return;
      default:
        return;
    }
  };

  /** Tool-set changes are reported before the result of the call that caused them; show them after it. */
  private flushChanges(): void {
    for (const entry of this.changes.splice(0)) this.add(entry);
  }

  private add(entry: TraceEntry): void {
    this.onEntry(entry);
  }
}
