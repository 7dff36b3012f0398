// The two providers with a deferred form, each through its real AI SDK package against its local wire mock,
// behind one shape: script the model's turns, then read what each request offered and carried.
import { createAnthropic } from "@ai-sdk/anthropic";
import { createOpenAI } from "@ai-sdk/openai";
import type { LanguageModelV3 } from "@ai-sdk/provider";
import type { LanguageModel } from "ai";
import { startAnthropicMessagesMock, startOpenAiResponsesMock } from "entity-tools/testing";
import { inOrder } from "../../support/openai-mocks.js";

/** One scripted model turn: tool calls (by name, with input), or a final text. */
export type Turn = { readonly calls: readonly (readonly [string, unknown])[] } | { readonly text: string };

/** A running mock and the model that talks to it. */
export interface WireProvider {
  readonly model: LanguageModel;
  /** The provider that made `model` (as a process's default provider, it resolves the model's id). */
  readonly provider: { languageModel(id: string): LanguageModelV3 };
  /** The id `model` was made with. */
  readonly modelId: string;
  /** Each request's tool list, as JSON. */
  tools(): string[];
  /** Each request's conversation (Anthropic `messages`, OpenAI `input`). */
  conversations(): unknown[][];
  close(): Promise<void>;
}

export type ProviderName = "anthropic" | "openai";

/**
 * Starts `provider`'s mock answering the n-th request with `turns[n]`; the provider makes its requests with
 * `fetch` when given.
 */
export async function wireProvider(
  provider: ProviderName,
  turns: readonly Turn[],
  fetch?: typeof globalThis.fetch,
): Promise<WireProvider> {
  if (provider === "anthropic") {
    let n = 0;
    const mock = await startAnthropicMessagesMock(() => {
      const turn = turns[n++] ?? { text: "?" };
      return "text" in turn ? turn : { toolCalls: turn.calls.map(([name, input]) => ({ name, input })) };
    });
    const anthropic = createAnthropic({ baseURL: `${mock.baseURL}/v1`, apiKey: "test-key", fetch });
    return {
      model: anthropic("claude-sonnet-4-5"),
      provider: anthropic,
      modelId: "claude-sonnet-4-5",
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
  const openai = createOpenAI({ baseURL: mock.baseURL, apiKey: "test-key", fetch });
  return {
    model: openai.responses("gpt-test"),
    provider: openai, // its models by id are Responses models
    modelId: "gpt-test",
    tools: () => mock.requests.map((r) => JSON.stringify(r.body.tools)),
    conversations: () => mock.requests.map((r) => [...r.body.input]),
    close: () => mock.close(),
  };
}
