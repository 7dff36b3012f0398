// What a streamed run hands to a browser and to its readers when things go wrong: a failure's message is
// masked in the UI protocol unless the caller chooses otherwise, and a second reader is refused, not left
// waiting for ever.
import { APICallError } from "@ai-sdk/provider";
import { describe, expect, it } from "vitest";
import { PromptRunner, StreamAlreadyReadError, type RunStreamPart } from "entity-tools";
import { ScriptedLanguageModel } from "entity-tools/testing";
import { NewestMockModel } from "../support/mock-model.js";

const SECRET = "sk-live-0123456789abcdef";

/** A runner whose model call fails with an upstream 401 that quotes the API key. */
function failingRunner() {
  const fail = async () => {
    throw new APICallError({
      message: `401 Unauthorized: invalid key ${SECRET}`,
      url: "https://api.example.test/v1",
      requestBodyValues: {},
      statusCode: 401,
      isRetryable: false,
    });
  };
  const model = new NewestMockModel({ doGenerate: fail, doStream: fail });
  return new PromptRunner({ model, modelSettings: { maxRetries: 0 } });
}

/** The `error` chunks' texts in a UI message stream response. */
async function errorTexts(response: Response): Promise<string[]> {
  const body = await response.text();
  return body
    .split("\n")
    .filter((line) => line.startsWith("data: {"))
    .map((line) => JSON.parse(line.slice(6)) as { type: string; errorText?: string })
    .flatMap((chunk) => (chunk.type === "error" ? [chunk.errorText!] : []));
}

describe("streams: failures and readers", () => {
  it("a failing run's UI stream response does not send the error's message by default", async () => {
    const stream = failingRunner().stream("q");
    const response = stream.toUIMessageStreamResponse();
    const body = await response.clone().text();
    expect(body).not.toContain(SECRET);
    expect(await errorTexts(response)).toEqual(["An error occurred."]);
    await expect(stream.result).rejects.toThrow(SECRET); // the caller still has the whole error
  });

  it("onError lets the caller choose what the browser reads", async () => {
    const response = failingRunner()
      .stream("q")
      .toUIMessageStreamResponse({
        status: 200,
        onError: (error) => `failed: ${(error as Error).name}`,
      });
    expect(await errorTexts(response)).toEqual(["failed: ModelCallError"]);
  });

  it("a second reader of parts is refused with a clear error, and the first reads every part", async () => {
    const stream = new PromptRunner({ model: new ScriptedLanguageModel().respondWithText("hello") }).stream(
      "q",
    );
    const first = stream.parts[Symbol.asyncIterator]();
    const second = (async () => {
      const seen: RunStreamPart[] = [];
      for await (const part of stream.parts) seen.push(part);
      return seen;
    })();
    await expect(second).rejects.toBeInstanceOf(StreamAlreadyReadError);
    expect(() => stream.toUIMessageStream()).toThrow(StreamAlreadyReadError);
    expect(() => stream.toUIMessageStreamResponse()).toThrow("a RunStream has one");
    const types: string[] = [];
    for (let next = await first.next(); !next.done; next = await first.next()) types.push(next.value.type);
    expect(types.at(-1)).toBe("finish");
    expect(types).toContain("text-delta");
  });
});
