// `npx tsx examples/tracing/render-trace.ts [out.svg]`: runs a discovery agent with withTelemetry into the
// OpenTelemetry SDK's in-memory exporter, and draws the spans as a waterfall (docs/tracing-trace.svg). The
// offline model is given a realistic latency so the bars mean something; nothing leaves the process.
import { writeFileSync } from "node:fs";
import type { LanguageModelV3 } from "@ai-sdk/provider";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
} from "@opentelemetry/sdk-trace-base";
import { wrapLanguageModel } from "ai";
import { PromptRunner } from "entity-tools";
import { ScriptedLanguageModel } from "entity-tools/testing";
import "../register-schemas.js";
import { CustomerSearchTools } from "../domain/customer-search-tools.js";

const LATENCY_MS = [640, 520, 710];
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const scripted = new ScriptedLanguageModel()
  .callTool("findCustomers", { text: "Smith" })
  .callTool("customer_c123_getAverageSpend", {})
  .respondWithText("John Smith spends 46.83 USD a month on average.");
let step = 0;
const model = wrapLanguageModel({
  model: scripted as unknown as LanguageModelV3,
  middleware: {
    specificationVersion: "v3",
    wrapGenerate: async ({ doGenerate }) => {
      await sleep(LATENCY_MS[step++] ?? 500);
      const result = await doGenerate();
      return {
        ...result,
        usage: {
          inputTokens: { total: 900 + 450 * step, noCache: 900 + 450 * step, cacheRead: 0, cacheWrite: 0 },
          outputTokens: { total: 24, text: 24, reasoning: 0 },
        },
      };
    },
  },
});

const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
await new PromptRunner({ model })
  .withSystemPrompt("You answer questions about customers. Use the tools; never guess numbers.")
  .withTools(new CustomerSearchTools())
  .withToolProviderDiscovery()
  .withToolMiddleware(async (_call, next) => {
    await sleep(60); // a database round trip
    return next();
  })
  .withTelemetry({ tracer: provider.getTracer("entity-tools-example") })
  .run("What do the Smiths spend? Start with John.");

const out = process.argv[2] ?? "docs/tracing-trace.svg";
writeFileSync(out, waterfall(exporter.getFinishedSpans()));
console.log(`wrote ${out}`);

/** The spans as an SVG waterfall: one row per span (children indented), its events as rows beneath it. */
function waterfall(spans: readonly ReadableSpan[]): string {
  const ms = (t: [number, number]) => t[0] * 1000 + t[1] / 1e6;
  const ids = new Set(spans.map((s) => s.spanContext().spanId));
  const kids = (parent: string | undefined) =>
    spans
      .filter((s) =>
        parent === undefined
          ? !s.parentSpanContext || !ids.has(s.parentSpanContext.spanId)
          : s.parentSpanContext?.spanId === parent,
      )
      .sort((a, b) => ms(a.startTime) - ms(b.startTime));
  const root = kids(undefined)[0]!;
  const t0 = ms(root.startTime);
  const total = ms(root.endTime) - t0;
  const rows: { depth: number; span?: ReadableSpan; event?: { name: string; at: number; text: string } }[] =
    [];
  const walk = (span: ReadableSpan, depth: number) => {
    rows.push({ depth, span });
    for (const e of span.events)
      rows.push({
        depth: depth + 1,
        event: { name: e.name, at: ms(e.time) - t0, text: describe(e.attributes ?? {}) },
      });
    for (const child of kids(span.spanContext().spanId)) walk(child, depth + 1);
  };
  walk(root, 0);

  const W = 1000,
    LABEL = 330,
    PAD = 16,
    ROW = 30,
    TOP = 70;
  const x = (t: number) => LABEL + ((W - LABEL - PAD - 200) * t) / total;
  const colour = (name: string) =>
    name.startsWith("chat") ? "#2563eb" : name.startsWith("execute_tool") ? "#059669" : "#4b5563";
  const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;");
  const body = rows.map((row, i) => {
    const y = TOP + i * ROW;
    const indent = PAD + row.depth * 18;
    if (row.event) {
      const cx = x(row.event.at);
      return `<path d="M${cx} ${y + 5} l6 6 l-6 6 l-6 -6 z" fill="#d97706"/>
  <text x="${indent}" y="${y + 15}" class="ev">◆ ${esc(row.event.name)}</text>
  <text x="${cx + 12}" y="${y + 15}" class="evd">${esc(row.event.text)}</text>`;
    }
    const s = row.span!;
    const start = ms(s.startTime) - t0,
      end = ms(s.endTime) - t0;
    const usage = s.attributes["gen_ai.usage.input_tokens"];
    const note =
      s.name.startsWith("chat") && usage !== undefined
        ? ` · ${usage} in / ${s.attributes["gen_ai.usage.output_tokens"]} out`
        : "";
    return `<rect x="${x(start)}" y="${y + 4}" width="${Math.max(2, x(end) - x(start))}" height="18" rx="3" fill="${colour(s.name)}"/>
  <text x="${indent}" y="${y + 17}" class="name">${esc(s.name)}</text>
  <text x="${x(end) + 6}" y="${y + 17}" class="dur">${Math.round(end - start)} ms${note}</text>`;
  });
  const H = TOP + rows.length * ROW + 40;
  const ticks = [0, 0.25, 0.5, 0.75, 1].map((f) => {
    const t = total * f;
    return `<line x1="${x(t)}" y1="${TOP - 6}" x2="${x(t)}" y2="${H - 34}" stroke="#e5e7eb"/><text x="${x(t)}" y="${TOP - 10}" class="tick">${Math.round(t)} ms</text>`;
  });
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}">
<style>
  text { font-family: -apple-system, "Segoe UI", Helvetica, Arial, sans-serif; font-size: 13px; fill: #111827; }
  .title { font-size: 16px; font-weight: 600; } .tick { font-size: 11px; fill: #6b7280; text-anchor: middle; }
  .dur { font-size: 12px; fill: #374151; } .ev { font-size: 12px; fill: #b45309; } .evd { font-size: 12px; fill: #92400e; }
  .legend { font-size: 12px; fill: #4b5563; }
</style>
<rect width="100%" height="100%" fill="#ffffff"/>
<text x="${PAD}" y="26" class="title">A discovery run in a trace backend: entity-tools spans (withTelemetry)</text>
${ticks.join("\n")}
${body.join("\n")}
<text x="${PAD}" y="${H - 14}" class="legend">grey: the run (invoke_agent) · blue: a model call (chat, with gen_ai.usage.*) · green: a tool call (execute_tool) · ◆ a span event: why the tool set changed</text>
</svg>
`;
}

function describe(a: Record<string, unknown>): string {
  const tools = (a["entity_tools.tools"] as string[] | undefined) ?? [];
  const classes = (a["entity_tools.provider.class"] as string[] | undefined) ?? [];
  const providerIds = (a["entity_tools.provider.id"] as string[] | undefined) ?? [];
  const from = classes.map((c, i) => `${c} ${providerIds[i]}`).join(", ");
  return `${tools.length} tools${from ? ` from ${from}` : ""}${a["entity_tools.cause"] ? ` · cause: ${String(a["entity_tools.cause"])}` : ""}`;
}
