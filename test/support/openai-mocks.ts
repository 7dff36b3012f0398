// The public OpenAI mocks (`entity-tools/testing`) as these tests start them: the API a test names, and
// a script of replies given in order.
import {
  startOpenAiChatMock,
  startOpenAiResponsesMock,
  type OpenAiChatMock,
  type OpenAiResponsesMock,
  type MockReply,
} from "entity-tools/testing";

/** Either OpenAI mock. */
export type OpenAiMock = OpenAiChatMock | OpenAiResponsesMock;

/** A mock's `reply` that answers each request with the next of `replies`; one past the last gets a 500. */
export function inOrder(replies: readonly MockReply[]): () => MockReply {
  let next = 0;
  return () => {
    const reply = replies[next++];
    if (!reply) throw new Error(`no reply scripted for request ${next}`);
    return reply;
  };
}

/** The mock of `api` (`.chat(…)` or `.responses(…)` of `@ai-sdk/openai`), answering with `replies` in order. */
export function startOpenAiMock(
  api: "chat" | "responses",
  replies: readonly MockReply[],
): Promise<OpenAiMock> {
  return api === "chat" ? startOpenAiChatMock(inOrder(replies)) : startOpenAiResponsesMock(inOrder(replies));
}
