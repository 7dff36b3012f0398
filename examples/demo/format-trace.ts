import type { TraceEntry } from "./trace-recorder.js";

/** Shortens text for one line of the trace. */
export function abbreviate(text: string, max = 140): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** One trace entry as console lines. */
export function formatEntry(entry: TraceEntry): string {
  switch (entry.kind) {
    case "request":
      return `\n── step ${entry.step} · model request with ${entry.tools.length} tool(s)${entry.fresh.length ? ` · new: ${entry.fresh.join(", ")}` : ""}`;
    case "text":
      return `   model says: ${abbreviate(entry.text)}`;
    case "call":
      return `   model → ${entry.toolName}(${abbreviate(JSON.stringify(entry.input), 100)})`;
    case "result":
      return `   ${entry.isError ? "error" : "tool "} ← ${entry.toolName}: ${abbreviate(entry.text)}`;
    case "injected":
      return `   + injected ${entry.toolNames.length} tool(s) from ${entry.via}: ${entry.toolNames.join(", ")}`;
    case "removed":
      return `   - removed (${entry.reason}): ${entry.toolNames.join(", ")}`;
  }
}

/** The run as a Markdown file with a Mermaid sequence diagram. */
export function mermaidTrace(
  title: string,
  question: string,
  entries: readonly TraceEntry[],
  answer: string,
): string {
  const safe = (text: string) => abbreviate(text, 80).replace(/[;#]/g, " ");
  const lines = [
    `# ${title}`,
    "",
    "```mermaid",
    "sequenceDiagram",
    "  participant U as User",
    "  participant R as entity-tools loop",
    "  participant M as Model",
    "  participant T as Tools",
    `  U->>R: ${safe(question)}`,
  ];
  for (const entry of entries) {
    switch (entry.kind) {
      case "request":
        lines.push(`  R->>M: step ${entry.step} (${entry.tools.length} tools)`);
        break;
      case "text":
        lines.push(`  M-->>R: ${safe(entry.text)}`);
        break;
      case "call":
        lines.push(
          `  M-->>R: call ${entry.toolName}`,
          `  R->>T: ${entry.toolName}(${safe(JSON.stringify(entry.input))})`,
        );
        break;
      case "result":
        lines.push(`  T-->>R: ${entry.isError ? "error: " : ""}${safe(entry.text)}`);
        break;
      case "injected":
        lines.push(`  Note over R: injected ${entry.toolNames.join(", ")}`);
        break;
      case "removed":
        lines.push(`  Note over R: removed ${entry.toolNames.join(", ")}`);
        break;
    }
  }
  lines.push(`  R-->>U: ${safe(answer)}`, "```", "");
  return lines.join("\n");
}
