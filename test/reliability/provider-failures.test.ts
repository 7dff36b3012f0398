import { APICallError } from "ai";
import { createOpenAI } from "@ai-sdk/openai";
import { afterEach, describe, expect, it } from "vitest";
import { ModelCallError, PromptRunner, ToolLoopAbortedError, defineTool } from "entity-tools";
import { startOpenAiMock, type OpenAiMock } from "../support/openai-mocks.js";
import { call, mockModel } from "../support/mock-model.js";

let mock: OpenAiMock | undefined;
afterEach(async () => mock?.close());

const echo = defineTool<{ text: string }>({
  name: "echo",
  description: "Echo",
  inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
  execute: ({ text }) => text,
});

async function failingAfterOneStep(status: number, message: string) {
  mock = await startOpenAiMock("chat", [
    { toolCalls: [{ name: "echo", input: { text: "hi" } }] },
    { status, error: message },
  ]);
  const model = createOpenAI({ baseURL: mock.baseURL, apiKey: "k" }).chat("gpt-test");
  return new PromptRunner({ model, modelSettings: { maxRetries: 0 } })
    .withTools(echo)
    .run("go")
    .catch((e: unknown) => e);
}

describe("provider failures through @ai-sdk/openai (the local Chat Completions mock)", () => {
  it.each([
    ["R34", 500, "upstream exploded"],
    ["R35", 429, "rate limit reached"],
  ])(
    "%s HTTP %i: ModelCallError naming the cause, with the conversation so far",
    async (_id, status, message) => {
      const error = await failingAfterOneStep(status, message);
      expect(error).toBeInstanceOf(ModelCallError);
      expect((error as Error).message).toBe(`The model call failed: ${message}`);
      const cause = (error as ModelCallError).cause;
      expect(APICallError.isInstance(cause) && cause.statusCode).toBe(status);
      expect((error as ModelCallError).conversationHistory.map((m) => m.role)).toEqual([
        "user",
        "assistant",
        "tool",
      ]);
      expect((error as ModelCallError).totalIterations).toBe(2);
    },
  );
});

describe("cancellation", () => {
  it("R36 a run aborted mid-tool: ToolLoopAbortedError, the call answered as cancelled, nothing lost", async () => {
    const controller = new AbortController();
    const slow = defineTool({
      name: "slow",
      description: "Slow",
      execute: () => {
        queueMicrotask(() => controller.abort(new Error("stop")));
        return new Promise(() => {});
      },
    });
    const model = mockModel({ toolCalls: [{ toolName: "slow" }, { toolName: "slow" }] }, call("slow"));
    const error = await new PromptRunner({ model })
      .withTools(slow)
      .run("go", { signal: controller.signal })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ToolLoopAbortedError);
    expect((error as Error).message).toBe("The run was aborted: stop");
    const history = (error as ToolLoopAbortedError).conversationHistory;
    expect(history.map((m) => m.role)).toEqual(["user", "assistant", "tool"]);
    expect(JSON.stringify(history[2])).toMatch(
      /cancelled before this tool finished.*cancelled before this tool finished/,
    );
    expect(model.doGenerateCalls).toHaveLength(1);
  });
});
