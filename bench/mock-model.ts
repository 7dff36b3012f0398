// The AI SDK's mock model of the spec the installed `ai` is built on: MockLanguageModelV4 on ai 7
// (`npm run bench:ai7`), MockLanguageModelV3 on ai 6, so each lane is measured on its native path.
import * as aiTest from "ai/test";
import { MockLanguageModelV3 } from "ai/test";
import { generateResult, type ScriptedTurn } from "entity-tools/testing";

export const NewestMockModel = ((aiTest as Record<string, unknown>).MockLanguageModelV4 ??
  MockLanguageModelV3) as typeof MockLanguageModelV3;

/** A mock model playing `turn(step)` at each call (step counted from 1). */
export function playing(turn: (step: number) => ScriptedTurn): MockLanguageModelV3 {
  let step = 0;
  return new NewestMockModel({ doGenerate: async () => generateResult(turn(++step)) });
}

/**
 * {@link playing}, keeping none of the calls: the mock records every prompt, so a long run's measurement
 * would otherwise include the mock's record growing with the square of its steps.
 */
export function forgetful(turn: (step: number) => ScriptedTurn): MockLanguageModelV3 {
  const model = playing(turn);
  const doGenerate = model.doGenerate.bind(model);
  model.doGenerate = async (options) => {
    const result = await doGenerate(options);
    model.doGenerateCalls.length = 0;
    return result;
  };
  return model;
}
