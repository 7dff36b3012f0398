// The AI SDK's mock model playing a list of turns, plus readers of what each step offered. On ai 7 (the
// second test lane) it is MockLanguageModelV4, the spec ai 7 is built on; on ai 6 MockLanguageModelV3.
import type { LanguageModelV3CallOptions } from "@ai-sdk/provider";
import * as aiTest from "ai/test";
import { MockLanguageModelV3 } from "ai/test";
import { generateResult, type ScriptedTurn } from "entity-tools/testing";

export type MockTurn = ScriptedTurn | ((options: LanguageModelV3CallOptions) => ScriptedTurn);

/** The newest mock language model this `ai` ships (the V4 and V3 mocks take the same options). */
export const NewestMockModel = ((aiTest as Record<string, unknown>).MockLanguageModelV4 ??
  MockLanguageModelV3) as typeof MockLanguageModelV3;

export function mockModel(...turns: MockTurn[]): MockLanguageModelV3 {
  let index = 0;
  return new NewestMockModel({
    doGenerate: async (options) => {
      const turn = turns[index++];
      if (!turn) throw new Error(`mock model: no turn ${index}`);
      return generateResult(typeof turn === "function" ? turn(options) : turn);
    },
  });
}

/** Names of the tools offered at model call `index` (from 0). */
export function offeredAt(model: MockLanguageModelV3, index: number): string[] {
  return (model.doGenerateCalls[index]?.tools ?? []).map((t) => t.name);
}

/** The tool results the model saw in its last prompt, as text. */
export function toolResultsSeenAt(model: MockLanguageModelV3, index: number): string[] {
  const prompt = model.doGenerateCalls[index]?.prompt ?? [];
  return prompt.flatMap((m) =>
    m.role === "tool"
      ? m.content.flatMap((p) =>
          p.type === "tool-result" && "value" in p.output ? [String(p.output.value)] : [],
        )
      : [],
  );
}

export const call = (toolName: string, input: unknown = {}): ScriptedTurn => ({
  toolCalls: [{ toolName, input }],
});
export const text = (t: string): ScriptedTurn => ({ text: t });
