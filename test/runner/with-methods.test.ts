// Every with* returns a new runner that behaves differently, and leaves the runner it came from as it was.
import "../fixtures/store/register.js";
import type { LanguageModelV3CallOptions } from "@ai-sdk/provider";
import { MockLanguageModelV3 } from "ai/test";
import { describe, expect, it } from "vitest";
import {
  defineTool,
  MarkdownSection,
  PromptRunner,
  PromptTemplate,
  SectionVisibility,
  type JsonSchema,
  type ToolInjectionStrategy,
} from "entity-tools";
import { generateResult } from "entity-tools/testing";
import { Order } from "../fixtures/store/order.js";

/** What one run showed: every request the model got, what the observer saw, and the outcome. */
interface Seen {
  requests: { system: string; tools: string[] }[];
  observed: number;
}

/** A stateless model: it calls `probe` when offered, then answers with the result it read. */
function model(seen: Seen) {
  return new MockLanguageModelV3({
    doGenerate: async (options: LanguageModelV3CallOptions) => {
      const system = options.prompt.find((m) => m.role === "system")?.content ?? "";
      const tools = (options.tools ?? []).map((t) => t.name);
      seen.requests.push({ system: String(system), tools });
      const last = options.prompt.at(-1);
      const output =
        last?.role === "tool" && last.content[0]?.type === "tool-result" ? last.content[0].output : undefined;
      if (output) return generateResult({ text: `done: ${JSON.stringify(output)}` });
      if (tools.includes("probe")) return generateResult({ toolCalls: [{ toolName: "probe", input: {} }] });
      return generateResult({ text: "no tools" });
    },
  });
}

const probe = defineTool({
  name: "probe",
  description: "Returns an order, slowly",
  execute: () =>
    new Promise((resolve) => setTimeout(() => resolve(new Order("o1", "c1", new Date(0), [])), 30)),
});
const extra = defineTool({ name: "extra", description: "Another tool", execute: () => "x" });
const template = new PromptTemplate({
  ns: "t",
  key: "t",
  sections: [
    new MarkdownSection({
      key: "manual",
      title: "Manual",
      template: "FULL TEXT",
      summary: "short",
      visibility: SectionVisibility.SUMMARY,
    }),
  ],
});
const addsExtra: ToolInjectionStrategy = { evaluateToolResult: () => ({ add: [extra] }) };
const alwaysRestarts: ToolInjectionStrategy = {
  evaluateToolResult: () => ({ restart: { reason: "again" } }),
};
const jsonOutput: JsonSchema = { type: "object", properties: { n: { type: "number" } }, required: ["n"] };

interface Case {
  readonly name: string;
  readonly base?: (r: PromptRunner) => PromptRunner;
  readonly derive: (r: PromptRunner, seen: Seen) => PromptRunner;
  readonly output?: JsonSchema;
}

const cases: Case[] = [
  { name: "withTools", derive: (r) => r.withTools(extra) },
  { name: "withToolProviderDiscovery", derive: (r) => r.withToolProviderDiscovery() },
  {
    name: "withToolProviderDiscovery({ maxInjectedTools })",
    base: (r) => r.withToolProviderDiscovery(),
    derive: (r) => r.withToolProviderDiscovery({ maxInjectedTools: 1 }),
  },
  {
    name: "withMaxInjectedTools",
    base: (r) => r.withToolProviderDiscovery(),
    derive: (r) => r.withMaxInjectedTools(1),
  },
  {
    name: "withMaxInjectedTokens",
    base: (r) => r.withToolProviderDiscovery(),
    derive: (r) => r.withMaxInjectedTokens(1),
  },
  { name: "withInjectionStrategy", derive: (r) => r.withInjectionStrategy(addsExtra) },
  { name: "withMaxToolIterations", derive: (r) => r.withMaxToolIterations(1) },
  { name: "withSystemPrompt", derive: (r) => r.withSystemPrompt("Be brief.") },
  {
    name: "withVisibilityOverrides",
    base: (r) => r.withSystemPrompt(template),
    derive: (r) => r.withVisibilityOverrides({ manual: SectionVisibility.FULL }),
  },
  {
    name: "withMaxExpansions",
    base: (r) => r.withInjectionStrategy(alwaysRestarts),
    derive: (r) => r.withMaxExpansions(0),
  },
  {
    name: "withObserver",
    derive: (r, seen) =>
      r.withObserver(() => {
        seen.observed++;
      }),
  },
  {
    name: "withToolMiddleware",
    derive: (r) => r.withToolMiddleware(() => Promise.resolve("from middleware")),
  },
  { name: "withToolTimeout", derive: (r) => r.withToolTimeout(5) },
  { name: "withMaxOutputRepairs", derive: (r) => r.withMaxOutputRepairs(0), output: jsonOutput },
  { name: "withMaxResultChars", derive: (r) => r.withMaxResultChars(10) },
  { name: "withSnapshotKey", derive: (r) => r.withSnapshotKey("k".repeat(32)) },
];

/** Runs `runner` once and describes everything a user could notice. */
async function signature(runner: PromptRunner, seen: Seen, output?: JsonSchema): Promise<string> {
  seen.requests = [];
  seen.observed = 0;
  const outcome = await runner.run("q", output ? { output } : {}).then(
    (run) => ({ result: run.result, iterations: run.totalIterations, signed: "signature" in run.snapshot }),
    (error: { message: string; totalIterations: number }) => ({
      error: error.message,
      iterations: error.totalIterations,
    }),
  );
  return JSON.stringify({ outcome, requests: seen.requests, observed: seen.observed });
}

describe("every with* of PromptRunner", () => {
  for (const c of cases) {
    it(`${c.name} returns a new runner that behaves differently and leaves the original unchanged`, async () => {
      const seen: Seen = { requests: [], observed: 0 };
      const original = (c.base ?? ((r) => r))(new PromptRunner({ model: model(seen) }).withTools(probe));
      const before = await signature(original, seen, c.output);
      const derived = c.derive(original, seen);
      expect(derived).not.toBe(original);
      expect(derived).toBeInstanceOf(PromptRunner);
      expect(await signature(derived, seen, c.output)).not.toBe(before);
      expect(await signature(original, seen, c.output)).toBe(before);
    });
  }
});
