// withTelemetry through the OpenTelemetry SDK and its OTLP/HTTP exporter, to a receiver on 127.0.0.1: the
// spans of a discovery run arrive over HTTP as an OpenTelemetry collector reads them.
import "../fixtures/store/register.js";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { BasicTracerProvider, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PromptRunner } from "entity-tools";
import { CustomerSearchTools } from "../fixtures/store/customer-search-tools.js";
import { call, mockModel, text } from "../support/mock-model.js";

interface OtlpSpan {
  name: string;
  spanId: string;
  parentSpanId?: string;
  attributes: { key: string; value: Record<string, unknown> }[];
  events?: { name: string }[];
}

let server: Server;
let url: string;
const received: OtlpSpan[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
    request.on("end", () => {
      const payload = JSON.parse(body) as {
        resourceSpans: { scopeSpans: { spans: OtlpSpan[] }[] }[];
      };
      for (const resource of payload.resourceSpans)
        for (const scope of resource.scopeSpans) received.push(...scope.spans);
      response.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/traces`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("withTelemetry over OTLP/HTTP", () => {
  it("exports the run's spans to a local receiver, which reads them back with their GenAI attributes", async () => {
    const provider = new BasicTracerProvider({
      spanProcessors: [new SimpleSpanProcessor(new OTLPTraceExporter({ url }))],
    });
    const model = mockModel(call("searchCustomer", { name: "John Smith" }), text("found him"));
    await new PromptRunner({ model })
      .withTools(new CustomerSearchTools())
      .withToolProviderDiscovery()
      .withTelemetry({ tracer: provider.getTracer("otlp-test") })
      .run("Find John");
    await provider.forceFlush();
    await provider.shutdown();

    expect(received.map((s) => s.name).sort()).toEqual([
      "chat mock-model-id",
      "chat mock-model-id",
      "entity_tools.run",
      "execute_tool searchCustomer",
    ]);
    const run = received.find((s) => s.name === "entity_tools.run")!;
    for (const span of received.filter((s) => s !== run)) expect(span.parentSpanId).toBe(run.spanId);
    const tool = received.find((s) => s.name === "execute_tool searchCustomer")!;
    expect(tool.attributes).toContainEqual({
      key: "gen_ai.tool.name",
      value: { stringValue: "searchCustomer" },
    });
    expect(tool.events?.map((e) => e.name)).toEqual(["tools.injected"]);
  });
});
