// The converted prompt a run keeps: a late step of a long run does no more work than an early one. The
// messages of earlier steps reach the provider as the cache holds them (the same objects at every step,
// frozen), not copied again at every step.
import type { LanguageModelV3CallOptions, LanguageModelV3Message } from "@ai-sdk/provider";
import { describe, expect, it } from "vitest";
import { defineTool, PromptRunner, ToolLoopError } from "entity-tools";
import { generateResult } from "entity-tools/testing";
import { NewestMockModel } from "../support/mock-model.js";

const echo = defineTool<{ text: string }>({
  name: "echo",
  description: "Echo",
  inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
  execute: ({ text }) => text,
});

/**
 * A fast model for `steps` steps (a call to `echo` each, then an answer) that looks at every prompt as it
 * comes (`look`) and keeps none of them, so a long run's record does not grow with its square.
 */
function longRunModel(steps: number, look: (options: LanguageModelV3CallOptions, step: number) => void) {
  let step = 0;
  const model = new NewestMockModel({
    doGenerate: async (options) => {
      model.doGenerateCalls.length = 0;
      look(options, ++step);
      return generateResult(
        step < steps ? { toolCalls: [{ toolName: "echo", input: { text: `t${step}` } }] } : { text: "done" },
      );
    },
  });
  return model;
}

describe("the converted prompt of a long run", () => {
  it("a 2 000-step run completes, each step's prompt one call and one result longer, earlier messages never copied again", async () => {
    const steps = 2_000;
    const held: LanguageModelV3Message[] = []; // prompt index → the object the provider got from step 3 on
    let copiedAgain = 0;
    let wrongLength = 0;
    const model = longRunModel(steps, ({ prompt }, step) => {
      // system, the user's prompt, then an assistant call and a tool result per earlier step
      if (prompt.length !== 2 + 2 * (step - 1)) wrongLength++;
      // The last two messages are new at this step (the SDK's own objects); the ones before were cached.
      for (let i = 1; i < prompt.length - 2; i++) {
        if (held[i] === undefined) held[i] = prompt[i]!;
        else if (held[i] !== prompt[i]) copiedAgain++;
      }
    });
    const run = await new PromptRunner({ model })
      .withSystemPrompt("Be brief.")
      .withTools(echo)
      .withMaxToolIterations(steps)
      .run("go");
    expect(run.result).toBe("done");
    expect(run.totalIterations).toBe(steps);
    expect(run.conversationHistory).toHaveLength(1 + 2 * (steps - 1) + 1);
    expect(wrongLength).toBe(0);
    expect(held).toHaveLength(2 * (steps - 1));
    expect(copiedAgain).toBe(0);
    expect(Object.isFrozen(held[1]) && Object.isFrozen(held.at(-1)!.content)).toBe(true);
  });

  it("a provider that edits a message of an earlier step in place is stopped with a TypeError, not left in later prompts", async () => {
    const model = longRunModel(3, ({ prompt }, step) => {
      if (step === 3) (prompt[1] as { providerOptions?: unknown }).providerOptions = { cache: { mark: 1 } };
    });
    const failure = await new PromptRunner({ model })
      .withTools(echo)
      .run("go")
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ToolLoopError);
    expect((failure as ToolLoopError).cause).toBeInstanceOf(TypeError);
  });
});
