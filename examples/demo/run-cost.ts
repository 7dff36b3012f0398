import type { LanguageModelV3 } from "@ai-sdk/provider";
import { wrapLanguageModel, type LanguageModel } from "ai";
import type { PriceTable, RunCost } from "entity-tools";

/** List prices of the demo's default model (gpt-5-mini), USD per million tokens. */
export const DEMO_PRICES: PriceTable = { input: 0.25, cachedInput: 0.025, output: 2 };

/**
 * The offline model reports no tokens; for the cost lines to mean something it is given estimated counts
 * (characters / 4 of its prompt and answer), labelled as estimates in the output.
 */
export function withEstimatedUsage(model: LanguageModel): LanguageModel {
  return wrapLanguageModel({
    model: model as LanguageModelV3,
    middleware: {
      specificationVersion: "v3",
      wrapGenerate: async ({ doGenerate, params }) => {
        const result = await doGenerate();
        const input = Math.ceil(JSON.stringify([params.prompt, params.tools ?? []]).length / 4);
        const output = Math.ceil(JSON.stringify(result.content).length / 4);
        return {
          ...result,
          usage: {
            inputTokens: { total: input, noCache: input, cacheRead: 0, cacheWrite: 0 },
            outputTokens: { total: output, text: output, reasoning: 0 },
          },
        };
      },
    },
  });
}

const usd = (amount: number) => `$${amount.toFixed(6)}`;

/** The run's cost, and what each discovered provider added to it, as lines for the console. */
export function formatCost(cost: RunCost, estimated: boolean): string {
  const lines = [
    `\n── cost: ${usd(cost.total)} over ${cost.perStep.length} step(s)${estimated ? " (token counts estimated: offline model)" : ""}` +
      ` · prices USD per 1M tokens: input ${DEMO_PRICES.input}, cached ${DEMO_PRICES.cachedInput}, output ${DEMO_PRICES.output}`,
    ...cost.perStep.map(
      (s) =>
        `   step ${s.iteration}: ${s.cost === undefined ? "cost unknown (no usage reported)" : usd(s.cost)} · in ${s.usage.inputTokens} (cached ${s.usage.cachedInputTokens}) out ${s.usage.outputTokens}`,
    ),
  ];
  for (const p of cost.perProvider)
    lines.push(
      `   ${p.identity.providerClass} ${p.identity.id}: ${usd(p.cost)} · ${p.definitionTokens} definition token(s) across later requests, ` +
        `${p.calls} call(s), ${p.resultTokens} result token(s)`,
    );
  return lines.join("\n");
}
