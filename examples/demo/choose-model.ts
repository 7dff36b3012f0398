import { createOpenAI } from "@ai-sdk/openai";
import type { LanguageModel } from "ai";
import { ScriptedLanguageModel } from "entity-tools/testing";
import type { ExampleAgent } from "../example-agent.js";

export const DEFAULT_OPENAI_MODEL = "gpt-5-mini";

/** The model the demo talks to, and how to name it in the output. */
export interface ChosenModel {
  readonly model: LanguageModel;
  readonly label: string;
  readonly offline: boolean;
}

/**
 * `OPENAI_BASE_URL` → any OpenAI-compatible server (chat completions; `--model` required);
 * `OPENAI_API_KEY` → OpenAI (`--model`, default {@link DEFAULT_OPENAI_MODEL});
 * neither → the built-in offline model playing the example's script.
 */
export function chooseModel(
  env: NodeJS.ProcessEnv,
  modelId: string | undefined,
  agent: ExampleAgent<unknown>,
): ChosenModel {
  if (env.OPENAI_BASE_URL) {
    if (!modelId) throw new Error("OPENAI_BASE_URL is set: name the served model with --model");
    const provider = createOpenAI({
      baseURL: env.OPENAI_BASE_URL,
      apiKey: env.OPENAI_API_KEY ?? "not-needed",
    });
    return { model: provider.chat(modelId), label: `${modelId} at ${env.OPENAI_BASE_URL}`, offline: false };
  }
  if (env.OPENAI_API_KEY) {
    const id = modelId ?? DEFAULT_OPENAI_MODEL;
    return { model: createOpenAI({ apiKey: env.OPENAI_API_KEY })(id), label: `OpenAI ${id}`, offline: false };
  }
  return {
    model: agent.offlineScript(new ScriptedLanguageModel()),
    label:
      "built-in offline model (scripted: plays this example's conversation; set OPENAI_API_KEY for a real one)",
    offline: true,
  };
}
