import type { LanguageModelV3, LanguageModelV3Middleware } from "@ai-sdk/provider";
import { wrapLanguageModel, type LanguageModel } from "ai";

/**
 * `model` with `middleware` around it, where the installed SDK can wrap it: ai 6 wraps V3 models, ai 7 V3
 * and V4 (it upgrades V3 itself). A model of an older spec is given back as it is (the adapter resolves a
 * model given by id first: `stepModel`).
 */
export function wrappedModel(
  model: LanguageModel,
  middleware: Omit<LanguageModelV3Middleware, "specificationVersion">,
): LanguageModel {
  const version: string = typeof model === "object" ? model.specificationVersion : "";
  if (version !== "v3" && version !== "v4") return model;
  return wrapLanguageModel({
    model: model as LanguageModelV3,
    middleware: { specificationVersion: "v3", ...middleware },
  });
}
