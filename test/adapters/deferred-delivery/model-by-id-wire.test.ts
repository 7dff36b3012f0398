// A model given by id, with the process's default provider set to the real @ai-sdk/anthropic or
// @ai-sdk/openai provider (directly, or behind an alias of a custom provider), against its local wire
// mock: what the model is sent is decided by the model the id resolves to (its deferred form, the media
// it takes in a tool result), and the steps report the model the provider answered as (here a dated
// snapshot, as OpenAI answers "gpt-5-2025-08-07" for "gpt-5"), which pricing looks up too.
import "../../fixtures/register.js";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { customProvider, type LanguageModel } from "ai";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import {
  defineTool,
  LlmTool,
  PromptRunner,
  readRunLog,
  runView,
  toolAudio,
  toolContent,
  type ToolLoopEvent,
} from "entity-tools";
import { Bank, ran } from "../../fixtures/bank.js";
import { memoryTracer } from "../../support/span-tree.js";
import { wireProvider, type ProviderName, type WireProvider } from "./wire-providers.js";

const global = globalThis as { AI_SDK_DEFAULT_PROVIDER?: unknown };
const saved = global.AI_SDK_DEFAULT_PROVIDER;
let wire: WireProvider | undefined;
afterEach(async () => wire?.close());
const logs = mkdtempSync(path.join(tmpdir(), "model-by-id-"));
afterAll(() => {
  global.AI_SDK_DEFAULT_PROVIDER = saved;
  rmSync(logs, { recursive: true, force: true });
});

class RecordedBank extends Bank {
  @LlmTool({
    description: "Find the accounts of an owner, with the owner's voice note",
    parameters: { type: "object", properties: { owner: { type: "string" } }, required: ["owner"] },
  })
  findWithNote(owner: string) {
    const accounts = this.accounts.filter((a) => a.owner === owner);
    return toolContent(accounts, toolAudio(new Uint8Array([82, 73, 70, 70]), "audio/wav"));
  }
}

/** The provider answers as this snapshot of the model it was asked for. */
const SNAPSHOT = "-2026-01-01";
/** Requests as they are; each answer naming the model it comes from as its dated snapshot. */
const answeringAsSnapshot: typeof fetch = async (url, init) => {
  const response = await fetch(url, init);
  const text = (await response.text()).replace(/"model":"([^"]+)"/g, `"model":"$1${SNAPSHOT}"`);
  return new Response(text, { status: response.status, headers: response.headers });
};

describe.each<ProviderName>(["anthropic", "openai"])("a model given by id, resolved to %s", (name) => {
  it.each([
    ["the default provider itself", "generated"],
    ["an alias of a custom provider", "streamed"],
  ])(
    "through %s (%s): deferred tools in its form, its media rule, the answering model reported and priced",
    async (through, how) => {
      ran.length = 0;
      wire = await wireProvider(
        name,
        [
          { calls: [["findWithNote", { owner: "Bob" }]] },
          { calls: [["account_2_getBalance", {}]] },
          { text: "50." },
        ],
        answeringAsSnapshot,
      );
      const direct = through === "the default provider itself";
      global.AI_SDK_DEFAULT_PROVIDER = direct
        ? wire.provider
        : customProvider({ languageModels: { fast: wire.provider.languageModel(wire.modelId) } });
      const events: ToolLoopEvent[] = [];
      const priced: (string | undefined)[] = [];
      const { tracer, spans } = memoryTracer();
      const logDir = path.join(logs, `${name}-${how}`);
      const runner = new PromptRunner({
        model: direct ? wire.modelId : "fast",
        modelSettings: { maxRetries: 0 },
      })
        .withTools(new RecordedBank())
        .withToolProviderDiscovery({ delivery: "deferred" })
        .withPricing((modelId) => (priced.push(modelId), { input: 1, output: 1 }))
        .withTelemetry({ tracer })
        .withRunLog(logDir)
        .withObserver((e) => events.push(e));
      const run = how === "generated" ? await runner.run("Bob?") : await runner.stream("Bob?").result;

      expect(run.result).toBe("50.");
      expect(ran).toEqual(["getBalance 2"]);
      // The deferred form: the tool list never changes (OpenAI's declares its client tool search), and the
      // discovered tools arrive in the conversation after the result that found them.
      const tools = wire.tools();
      expect(new Set(tools).size).toBe(1);
      expect(tools[0]!.includes('"tool_search"')).toBe(name === "openai");
      expect(tools[0]).not.toContain("account_2_getBalance");
      const second = wire.conversations()[1] as { type?: string; role?: string }[];
      if (name === "anthropic") expect(second.at(-1)).toMatchObject({ role: "system" });
      else expect(second.slice(-2).map((i) => i.type)).toEqual(["tool_search_call", "tool_search_output"]);
      expect(JSON.stringify(second.at(-1))).toContain("account_2_getBalance");
      // Neither provider takes audio in a tool result: the model read what it was, not nothing.
      expect(JSON.stringify(second)).toContain(
        "not shown: this model does not take audio/wav in tool results",
      );
      expect(events.filter((e) => e.type === "ModelWarning").map((e) => e.message)).toEqual([
        expect.stringContaining(
          `"findWithNote" holds an audio clip (audio/wav, 4 bytes), which this model does not take`,
        ),
      ]);

      const answeredAs = `${wire.modelId}${SNAPSHOT}`;
      const responded = events.filter((e) => e.type === "ModelResponded");
      expect(responded.map((e) => [e.modelId, e.responseModelId])).toEqual(
        responded.map(() => [wire!.modelId, answeredAs]), // asked for the model the id resolved to
      );
      // As the GenAI conventions have it: a step's span is named by the model asked for.
      const chats = spans().filter((s) => s.name.startsWith("chat"));
      expect(
        chats.map((s) => [
          s.name,
          s.attributes["gen_ai.request.model"],
          s.attributes["gen_ai.response.model"],
        ]),
      ).toEqual(chats.map(() => [`chat ${wire!.modelId}`, wire!.modelId, answeredAs]));
      expect(chats).toHaveLength(3);
      // Priced as the model asked for (the alias resolved): what a price list names, not a dated snapshot.
      expect([...new Set(priced)]).toEqual([wire.modelId]); // (the run log prices each step too)
      expect(run.cost!.perStep.map((s) => s.modelId)).toEqual([wire.modelId, wire.modelId, wire.modelId]);
      // The run log records both, and the viewer's steps read them (it shows the answered id beside).
      const [file] = readdirSync(logDir);
      const view = runView(readRunLog(readFileSync(path.join(logDir, file!), "utf8")));
      expect(view.steps.map((s) => [s.response?.modelId, s.response?.responseModelId])).toEqual(
        view.steps.map(() => [wire!.modelId, answeredAs]),
      );
      expect(view.steps).toHaveLength(3);
    },
  );
});

// What the rule reads: the model each step resolves to, so a default provider set after the runner was
// made decides (as the SDK's own `generateText` would resolve the id then).
it("decides by the default provider of the moment the run starts, not of the runner's making", async () => {
  wire = await wireProvider("anthropic", [{ calls: [["findAccounts", { owner: "Bob" }]] }, { text: "done" }]);
  global.AI_SDK_DEFAULT_PROVIDER = undefined;
  const runner = new PromptRunner({
    model: "claude-sonnet-4-5" as LanguageModel,
    modelSettings: { maxRetries: 0 },
  })
    .withTools(new Bank())
    .withToolProviderDiscovery({ delivery: "deferred" });
  global.AI_SDK_DEFAULT_PROVIDER = wire.provider;
  const events: ToolLoopEvent[] = [];
  expect((await runner.withObserver((e) => events.push(e)).run("Bob?")).result).toBe("done");
  expect(events.filter((e) => e.type === "ModelWarning")).toEqual([]);
  expect(wire.conversations()[1]!.at(-1)).toMatchObject({ role: "system" });
});

// A default provider that routes each call (a fallback router): each step is sent in the form of the model
// it was routed to, the tools discovered before the switch delivered again in the new form.
it("sends each step in the form of the model that step resolved to", async () => {
  ran.length = 0;
  const clock = defineTool({ name: "clock", description: "The time", execute: () => "noon" });
  const anthropic = await wireProvider("anthropic", [
    { calls: [["findAccounts", { owner: "Bob" }]] },
    { calls: [["clock", {}]] },
  ]);
  wire = await wireProvider("openai", [{ calls: [["account_2_getBalance", {}]] }, { text: "50." }]);
  let responses = 0;
  global.AI_SDK_DEFAULT_PROVIDER = {
    languageModel: (id: string) => (responses < 2 ? anthropic : wire!).provider.languageModel(id),
  };
  try {
    const run = await new PromptRunner({ model: "claude-sonnet-4-5", modelSettings: { maxRetries: 0 } })
      .withTools(new Bank(), clock)
      .withToolProviderDiscovery({ delivery: "deferred" })
      .withObserver((e) => void (e.type === "ModelResponded" && responses++))
      .run("Bob?");
    expect(run.result).toBe("50.");
    expect(ran).toEqual(["getBalance 2"]);
    expect(anthropic.tools()[0]).not.toContain('"tool_search"');
    expect(JSON.stringify(anthropic.conversations()[1]!.at(-1))).toContain("account_2_getBalance");
    // The first OpenAI step has the tools of the Anthropic steps' (clock found nothing), in OpenAI's form.
    expect(wire.tools()).toEqual([expect.stringContaining('"tool_search"'), wire.tools()[0]]);
    const first = wire.conversations()[0] as { type?: string }[];
    expect(first.slice(-2).map((i) => i.type)).toEqual(["tool_search_call", "tool_search_output"]);
    expect(JSON.stringify(first.at(-1))).toContain("account_2_getBalance");
  } finally {
    await anthropic.close();
  }
});
