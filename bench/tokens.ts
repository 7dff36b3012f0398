// 3. Tokens (o200k): disclosure against all-FULL, and a tool-bearing expansion dynamic against restart.
import type { LanguageModelV3CallOptions } from "@ai-sdk/provider";
import { encode } from "gpt-tokenizer/encoding/o200k_base";
import { AiSdkAdapter, defineTool, PromptRunner, SectionVisibility, type ModelAdapter } from "entity-tools";
import type { ScriptedTurn } from "entity-tools/testing";
import type { BenchRow } from "./measure.js";
import { playing } from "./mock-model.js";
import { referenceManual } from "./reference-manual.js";

/** Tokens of everything a model call sends: the prompt messages and the tool definitions. */
function inputTokens(call: LanguageModelV3CallOptions): number {
  return encode(JSON.stringify(call.prompt)).length + encode(JSON.stringify(call.tools ?? [])).length;
}

const script = (turns: ScriptedTurn[]) => playing((step) => turns[step - 1] ?? { text: "done" });

/** Input tokens of every call of a run, summed. */
const runTokens = (calls: readonly LanguageModelV3CallOptions[]) =>
  calls.reduce((sum, c) => sum + inputTokens(c), 0);

const lookup = defineTool({
  name: "lookupOrder",
  description: "Look up an order",
  execute: () => ({ id: "o-1002", total: 129 }),
});

async function firstRequestTokens(visibility: SectionVisibility): Promise<number> {
  const model = script([{ text: "ok" }]);
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
  const model = script(turns);
  const inner = new AiSdkAdapter(model);
  const adapter: ModelAdapter = dynamic ? inner : { supportsDynamicTools: false, step: (r) => inner.step(r) };
  await new PromptRunner({ adapter })
    .withTools(lookup)
    .withSystemPrompt(referenceManual(SectionVisibility.SUMMARY))
    .run("Refund order o-1002, it arrived broken.");
  return {
    calls: model.doGenerateCalls.length,
    tokens: runTokens(model.doGenerateCalls),
  };
}

/**
 * The whole refund task, every call's input summed: with every section FULL the model looks the order up,
 * refunds and answers; summarized, it reads the refunds section first (one call more), which unlocks the
 * refund tools.
 */
async function wholeRunTokens(visibility: SectionVisibility): Promise<number> {
  const read: ScriptedTurn[] =
    visibility === SectionVisibility.FULL
      ? []
      : [{ toolCalls: [{ toolName: "read_section", input: { section_key: "refunds" } }] }];
  const model = script([
    { toolCalls: [{ toolName: "lookupOrder" }] },
    ...read,
    { toolCalls: [{ toolName: "refunds_apply", input: { orderId: "o-1002", amount: 129 } }] },
    { text: "Refunded 129 USD." },
  ]);
  await new PromptRunner({ model })
    .withTools(lookup)
    .withSystemPrompt(referenceManual(visibility))
    .run("Refund order o-1002, it arrived broken.");
  return runTokens(model.doGenerateCalls);
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
  const fullRun = await wholeRunTokens(SectionVisibility.FULL);
  const summarizedRun = await wholeRunTokens(SectionVisibility.SUMMARY);
  const runSaved = 1 - summarizedRun / fullRun;
  rows.push(
    {
      bench: "3 tokens",
      measure: "whole refund run, all FULL / summarized (one read_section more): input tokens",
      value: `${fullRun} / ${summarizedRun} tok`,
      goal: "",
      met: undefined,
    },
    {
      bench: "3 tokens",
      measure: "whole refund run: saved by disclosure",
      value: `${(runSaved * 100).toFixed(1)} %`,
      goal: "> 0",
      met: runSaved > 0,
    },
  );
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
