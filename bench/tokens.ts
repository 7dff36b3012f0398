// 3. Tokens (o200k): disclosure against all-FULL, and a tool-bearing expansion dynamic against restart.
import type { LanguageModelV3CallOptions } from "@ai-sdk/provider";
import { MockLanguageModelV3 } from "ai/test";
import { encode } from "gpt-tokenizer/encoding/o200k_base";
import { AiSdkAdapter, defineTool, PromptRunner, SectionVisibility, type ModelAdapter } from "entity-tools";
import { generateResult, type ScriptedTurn } from "entity-tools/testing";
import type { BenchRow } from "./measure.js";
import { referenceManual } from "./reference-manual.js";

/** Tokens of everything a model call sends: the prompt messages and the tool definitions. */
function inputTokens(call: LanguageModelV3CallOptions): number {
  return encode(JSON.stringify(call.prompt)).length + encode(JSON.stringify(call.tools ?? [])).length;
}

function playing(turns: ScriptedTurn[]): MockLanguageModelV3 {
  let i = 0;
  return new MockLanguageModelV3({ doGenerate: async () => generateResult(turns[i++] ?? { text: "done" }) });
}

const lookup = defineTool({
  name: "lookupOrder",
  description: "Look up an order",
  execute: () => ({ id: "o-1002", total: 129 }),
});

async function firstRequestTokens(visibility: SectionVisibility): Promise<number> {
  const model = playing([{ text: "ok" }]);
  await new PromptRunner({ model })
    .withTools(lookup)
    .withSystemPrompt(referenceManual(visibility))
    .run("Hello");
  return inputTokens(model.doGenerateCalls[0]!);
}

/** `prior` lookups, a read of the tool-bearing refunds section, a refund, an answer. */
async function expansionRun(dynamic: boolean, prior: number): Promise<{ calls: number; tokens: number }> {
  const lookups: ScriptedTurn[] = Array.from({ length: prior }, () => ({
    toolCalls: [{ toolName: "lookupOrder" }],
  }));
  const turns: ScriptedTurn[] = [
    ...lookups,
    { toolCalls: [{ toolName: "read_section", input: { section_key: "refunds" } }] },
    ...(dynamic ? [] : lookups), // a restart starts over: the work before the read is done again
    { toolCalls: [{ toolName: "refunds_apply", input: { orderId: "o-1002", amount: 129 } }] },
    { text: "Refunded 129 USD." },
  ];
  const model = playing(turns);
  const inner = new AiSdkAdapter(model);
  const adapter: ModelAdapter = dynamic ? inner : { supportsDynamicTools: false, step: (r) => inner.step(r) };
  await new PromptRunner({ adapter })
    .withTools(lookup)
    .withSystemPrompt(referenceManual(SectionVisibility.SUMMARY))
    .run("Refund order o-1002, it arrived broken.");
  return {
    calls: model.doGenerateCalls.length,
    tokens: model.doGenerateCalls.reduce((sum, c) => sum + inputTokens(c), 0),
  };
}

export async function tokens(): Promise<BenchRow[]> {
  const full = await firstRequestTokens(SectionVisibility.FULL);
  const summarized = await firstRequestTokens(SectionVisibility.SUMMARY);
  const saved = 1 - summarized / full;
  const rows: BenchRow[] = [
    {
      bench: "3 tokens",
      measure: "first request, all sections FULL (prompt + tool definitions)",
      value: `${full} tok`,
      goal: "",
      met: undefined,
    },
    {
      bench: "3 tokens",
      measure: "first request, reference sections summarized",
      value: `${summarized} tok`,
      goal: "",
      met: undefined,
    },
    {
      bench: "3 tokens",
      measure: "saved by disclosure",
      value: `${(saved * 100).toFixed(1)} %`,
      goal: "≥ 85 %",
      met: saved >= 0.85,
    },
  ];
  for (const prior of [1, 3]) {
    const dynamic = await expansionRun(true, prior);
    const restart = await expansionRun(false, prior);
    const fewer = 1 - dynamic.tokens / restart.tokens;
    const scenario = `expansion after ${prior} call(s)`;
    rows.push(
      {
        bench: "3 tokens",
        measure: `${scenario}, dynamic: model calls / input tokens`,
        value: `${dynamic.calls} / ${dynamic.tokens} tok`,
        goal: "",
        met: undefined,
      },
      {
        bench: "3 tokens",
        measure: `${scenario}, restart: model calls / input tokens`,
        value: `${restart.calls} / ${restart.tokens} tok`,
        goal: "",
        met: undefined,
      },
      {
        bench: "3 tokens",
        measure: `${scenario}: dynamic saves calls, input tokens`,
        value: `${restart.calls - dynamic.calls}, ${(fewer * 100).toFixed(1)} %`,
        goal: "≥ 1 call, ≥ 40 %",
        met: restart.calls - dynamic.calls >= 1 && fewer >= 0.4,
      },
    );
  }
  return rows;
}
