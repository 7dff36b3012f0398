// A model given by id (a string) is resolved at each step as the AI SDK resolves an id, through the
// process's default provider, else the AI Gateway, and then stepped as that model object is. Checked on
// the wire, against a local stand-in for the AI Gateway (its provider posts a call's options as they are).
// How a model id's every kind of step compares with its model object's: tool-choice-wire.test.ts.
import { createGateway, customProvider, type LanguageModel } from "ai";
import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from "vitest";
import { defineTool, PromptRunner } from "entity-tools";
import { stepModel } from "../../src/adapters/step-model.js";
import { startGatewayMock, type GatewayMock, type GatewayReply } from "../support/gateway-mock.js";

const echo = defineTool<{ text: string }>({
  name: "echo",
  description: "Echo",
  inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
  execute: ({ text }) => text,
});

describe("a model given by id", () => {
  let gateway: GatewayMock;
  /** What the model calls, once, when `echo` is offered; then it answers. */
  let firstCall: GatewayReply = { toolCalls: [{ name: "echo", input: { text: "a" } }] };
  const global = globalThis as { AI_SDK_DEFAULT_PROVIDER?: unknown };
  const saved = global.AI_SDK_DEFAULT_PROVIDER;
  beforeAll(
    async () =>
      (gateway = await startGatewayMock((request) =>
        request.options.tools?.some((t) => t.name === "echo") && request.calledTools.length === 0
          ? firstCall
          : { text: "done" },
      )),
  );
  afterAll(async () => {
    global.AI_SDK_DEFAULT_PROVIDER = saved;
    await gateway.close();
  });

  it("is the AI Gateway's when no default provider is set, with its key from the environment", async () => {
    global.AI_SDK_DEFAULT_PROVIDER = undefined;
    vi.stubEnv("AI_GATEWAY_API_KEY", "env-key");
    // The default gateway's address is fixed (no setting names another): its requests go to the mock.
    const realFetch = globalThis.fetch;
    vi.stubGlobal("fetch", (url: string | URL, init?: RequestInit) => {
      const { origin, pathname } = new URL(String(url));
      if (origin !== "https://ai-gateway.vercel.sh") throw new Error(`unexpected request to ${origin}`);
      return realFetch(`${gateway.baseURL}${pathname.replace(/^\/v\d+\/ai/, "")}`, init);
    });
    try {
      const before = gateway.requests.length;
      const runner = new PromptRunner({ model: "openai/gpt-test", modelSettings: { maxRetries: 0 } });
      expect((await runner.run("go")).result).toBe("done");
      expect((await runner.withTools(echo).run("go")).result).toBe("done");
      const sent = gateway.requests.slice(before);
      expect(sent.map(({ options }) => [options.tools?.map((t) => t.name), options.toolChoice])).toEqual([
        [undefined, undefined],
        [["echo"], { type: "auto" }],
        [["echo"], { type: "auto" }],
      ]);
      expect(sent.map((r) => [r.modelId, r.authorization])).toEqual(
        sent.map(() => ["openai/gpt-test", "Bearer env-key"]),
      );
    } finally {
      vi.unstubAllGlobals();
      vi.unstubAllEnvs();
    }
  });

  // ai 7 exports the SDK's own resolver: the rule `stepModel` repeats must give what it gives.
  it("is resolved as the installed SDK resolves an id (ai 7: its resolveLanguageModel)", async () => {
    const internal = (await import("ai/internal")) as {
      resolveLanguageModel?: (model: LanguageModel) => { provider: string; modelId: string };
    };
    const sdk = internal.resolveLanguageModel;
    expect(typeof sdk === "function").toBe(process.env.ENTITY_TOOLS_LANE === "ai7");
    if (!sdk) return; // ai 6 exports none; its `generateText` resolves as ai 7's does
    const aliases = customProvider({
      languageModels: { fast: createGateway({ baseURL: gateway.baseURL })("openai/gpt-fast") },
    });
    for (const provider of [undefined, aliases]) {
      global.AI_SDK_DEFAULT_PROVIDER = provider;
      const id = provider ? "fast" : "openai/gpt-test";
      const ours = stepModel(id) as Exclude<LanguageModel, string>;
      const theirs = sdk(id);
      expect([ours.provider, ours.modelId]).toEqual([theirs.provider, theirs.modelId]);
    }
  });

  it("has arguments nested 10 000 levels deep answered with an error result, not a failed step", async () => {
    global.AI_SDK_DEFAULT_PROVIDER = createGateway({ baseURL: gateway.baseURL, apiKey: "test-key" });
    const deep = "[".repeat(10_000) + "]".repeat(10_000);
    const usual = firstCall;
    firstCall = { toolCalls: [{ name: "echo", inputText: `{"a":${deep}}` }] };
    onTestFinished(() => void (firstCall = usual));
    const before = gateway.requests.length;
    const runner = new PromptRunner({ model: "openai/gpt-test", modelSettings: { maxRetries: 0 } });
    expect((await runner.withTools(echo).run("go")).result).toBe("done");
    const answered = gateway.requests[before + 1]!.options.prompt.at(-1)!;
    expect(answered.content).toMatchObject([
      { type: "tool-result", output: { value: expect.stringContaining("nested more than 64 levels deep") } },
    ]);
  });
});
