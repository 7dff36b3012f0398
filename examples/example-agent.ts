import type { PromptRunner } from "entity-tools";
import type { ScriptedLanguageModel } from "entity-tools/testing";

/** A runnable example: how it sets up a runner, what it asks, and how the offline model plays it. */
export interface ExampleAgent<T> {
  readonly name: string;
  readonly question: string;
  /** Adds the agent's tools and settings to a runner (a real one or a `FakePromptRunner`). */
  configure<R extends PromptRunner>(runner: R): R;
  ask(runner: PromptRunner, question: string): Promise<T>;
  /** The conversation the built-in offline model plays when no real model is configured. */
  offlineScript(model: ScriptedLanguageModel): ScriptedLanguageModel;
}
