import { gateway, type LanguageModel } from "ai";

/**
 * The model an id names, resolved as `generateText` resolves a model given as a string, at each call:
 * through the process's default provider (`globalThis.AI_SDK_DEFAULT_PROVIDER`), else the AI Gateway.
 * The adapter resolves the id at every step, as the SDK would, so a provider set as the default after the
 * runner was made is used, and the step is then made as for that model object: the same options, the
 * same tool choice, the same direct later steps, the same deferred form and tool-result media (every
 * decision that depends on the model reads the model this gives).
 */
export function stepModel(model: LanguageModel): Exclude<LanguageModel, string> {
  if (typeof model !== "string") return model;
  return (globalThis.AI_SDK_DEFAULT_PROVIDER ?? gateway).languageModel(model) as Exclude<
    LanguageModel,
    string
  >;
}
