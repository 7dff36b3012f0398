// An OpenTelemetry SDK tracer with an in-memory exporter, and the finished spans drawn as an indented tree
// (children in start order, span events under their span), so a test can compare a trace's whole shape.
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
} from "@opentelemetry/sdk-trace-base";

export function memoryTracer() {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  return { tracer: provider.getTracer("test"), spans: () => exporter.getFinishedSpans(), exporter };
}

// Spans that start in the same millisecond are drawn by step, a step's chat before its calls, not in export
// order: a conversation step's span is exported late (at the next step, with its response's end time), to
// take its turn's tokens.
const order = (a: ReadableSpan, b: ReadableSpan) =>
  a.startTime[0] - b.startTime[0] || a.startTime[1] - b.startTime[1] || stepOrder(a) - stepOrder(b);
const stepOrder = (s: ReadableSpan) => {
  const step = s.attributes["entity_tools.step"];
  return typeof step === "number" ? step * 2 + (s.name.startsWith("chat") ? 0 : 1) : 0;
};

/** The spans as lines: `name` per span, `· event attrs` per span event, two spaces per level. */
export function spanTree(spans: readonly ReadableSpan[], describeEvent = eventLine): string[] {
  const ids = new Set(spans.map((s) => s.spanContext().spanId));
  const children = (parent: string | undefined) =>
    spans
      .filter((s) => {
        const p = s.parentSpanContext?.spanId;
        return parent === undefined ? p === undefined || !ids.has(p) : p === parent;
      })
      .sort(order);
  const lines: string[] = [];
  const walk = (span: ReadableSpan, depth: number) => {
    const pad = "  ".repeat(depth);
    const failed = span.status.code === 2 ? ` !${String(span.attributes["error.type"])}` : "";
    lines.push(`${pad}${span.name}${failed}`);
    for (const e of span.events) lines.push(`${pad}  · ${describeEvent(e.name, e.attributes ?? {})}`);
    for (const child of children(span.spanContext().spanId)) walk(child, depth + 1);
  };
  for (const root of children(undefined)) walk(root, 0);
  return lines;
}

function eventLine(name: string, a: Record<string, unknown>): string {
  if (name === "exception") return `exception ${String(a["exception.type"])}`;
  const tools = (a["entity_tools.tools"] as string[] | undefined)?.join(",") ?? "";
  const cause = a["entity_tools.cause"] === undefined ? "" : ` by ${String(a["entity_tools.cause"])}`;
  const classes = (a["entity_tools.provider.class"] as string[] | undefined) ?? [];
  const ids = (a["entity_tools.provider.id"] as string[] | undefined) ?? [];
  const providers = classes.length > 0 ? ` from ${classes.map((c, i) => `${c}:${ids[i]}`).join(",")}` : "";
  return `${name} ${tools}${cause}${providers}`.trimEnd();
}
