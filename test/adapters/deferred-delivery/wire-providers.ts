// The two providers with a deferred form, each through its real AI SDK package against its local wire mock,
// behind one shape: script the model's turns, then read what each request offered and carried.
import { createAnthropic } from "@ai-sdk/anthropic";
import { createOpenAI } from "@ai-sdk/openai";
import type { LanguageModel } from "ai";
import { startAnthropicMessagesMock, startOpenAiResponsesMock } from "entity-tools/testing";
import { inOrder } from "../../support/openai-mocks.js";

/** One scripted model turn: tool calls (by name, with input), or a final text. */
export type Turn = { readonly calls: readonly (readonly [string, unknown])[] } | { readonly text: string };

/** A running mock and the model that talks to it. */
export interface WireProvider {
  readonly model: LanguageModel;
  /** Each request's tool list, as JSON. */
  tools(): string[];
  /** Each request's conversation (Anthropic `messages`, OpenAI `input`). */
  conversations(): unknown[][];
  close(): Promise<void>;
}

export type ProviderName = "anthropic" | "openai";

/** Starts `provider`'s mock answering the n-th request with `turns[n]`. */
export async function wireProvider(provider: ProviderName, turns: readonly Turn[]): Promise<WireProvider> {
  if (provider === "anthropic") {
    let n = 0;
    const mock = await startAnthropicMessagesMock(() => {
      const turn = turns[n++] ?? { text: "?" };
      return "text" in turn ? turn : { toolCalls: turn.calls.map(([name, input]) => ({ name, input })) };
    });
    return {
      model: createAnthropic({ baseURL: `${mock.baseURL}/v1`, apiKey: "test-key" })("claude-sonnet-4-5"),
      tools: () => mock.requests.map((r) => JSON.stringify(r.body.tools)),
      conversations: () => mock.requests.map((r) => [...r.body.messages]),
      close: () => mock.close(),
    };
  }
  // (a discovered entity's tool is called inside the namespace its tool search delivered, as the API does)
  const mock = await startOpenAiResponsesMock(
    inOrder(
      turns.map((turn) =>
        "text" in turn ? turn : { toolCalls: turn.calls.map(([name, input]) => ({ name, input })) },
      ),
    ),
  );
  return {
    model: createOpenAI({ baseURL: mock.baseURL, apiKey: "test-key" }).responses("gpt-test"),
    tools: () => mock.requests.map((r) => JSON.stringify(r.body.tools)),
    conversations: () => mock.requests.map((r) => [...r.body.input]),
    close: () => mock.close(),
  };
}
