// A run's first step on the provider spec (issue 46): once the SDK has built a provider call's options for
// some run of the process, a run with the same settings whose prompt is user text skips `generateText` at
// its first step too, whatever its model object. What the provider receives must be what the SDK sent the
// earlier run; anything the SDK would have to validate, other settings, and the SDK's own telemetry still
// go through `generateText`.
import type { LanguageModelV3CallOptions } from "@ai-sdk/provider";
import * as ai from "ai";
import { afterEach, describe, expect, it, vi } from "vitest";
import { defineTool, PromptRunner, ToolLoopError, type AiSdkAdapterSettings } from "entity-tools";
import { generateResult } from "entity-tools/testing";
import { sdkInternals } from "../../src/adapters/sdk-internals.js";
import { mockModel, NewestMockModel, text } from "../support/mock-model.js";

const echo = defineTool<{ text: string }>({
  name: "echo",
  description: "Echo",
  inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
  execute: ({ text }) => text,
});

// What a run learns is the process's: each test takes settings no other test uses (another tenant
// header), so no test depends on which ran before it.
let tenant = 0;
const freshSettings = (): AiSdkAdapterSettings => ({
  temperature: 0.4,
  headers: { "x-tenant": `first-step-${++tenant}` },
  providerOptions: { acme: { region: "eu" } },
});

const omitSignal = ({ abortSignal: _signal, ...options }: LanguageModelV3CallOptions) => options;

/** How many conversions the running `threeSteps` has seen (its spy's count), read at a run's first step. */
let conversions = () => 0;

/** A model playing three turns for each run it serves (echo the prompt's length, echo "b", "done"). */
function echoModel() {
  const echoCall = (id: string, input: string) =>
    generateResult({ toolCalls: [{ toolCallId: id, toolName: "echo", input: { text: input } }] });
  let calls = 0;
  const firstStepConversions: number[] = [];
  const model = new NewestMockModel({
    doGenerate: async (options) => {
      const turn = calls++ % 3;
      if (turn === 0) firstStepConversions.push(conversions());
      if (turn === 0) return echoCall("c1", `${options.prompt.length}`);
      return turn === 1 ? echoCall("c2", "b") : generateResult({ text: "done" });
    },
  });
  return Object.assign(model, { firstStepConversions });
}

/** A three-step run on `model`; the provider calls it made and how many conversions its first step made. */
async function threeSteps(
  model: ReturnType<typeof echoModel>,
  runSettings: AiSdkAdapterSettings,
  prompt: string | ai.ModelMessage[] = "go",
) {
  const { internals } = await sdkInternals();
  const convert = vi.spyOn(internals!, "convert");
  conversions = () => convert.mock.calls.length;
  const before = model.doGenerateCalls.length;
  const run = await new PromptRunner({ model, modelSettings: runSettings })
    .withTools(echo)
    .run(prompt as string);
  convert.mockRestore();
  const calls = model.doGenerateCalls.slice(before).map(omitSignal);
  return { run, calls, firstStepConversions: model.firstStepConversions.at(-1) };
}

afterEach(() => vi.restoreAllMocks());

describe("a run's first step on the provider spec", () => {
  it("is made directly once an earlier run with the same settings learned its options, and sends what generateText sent", async () => {
    const settings = freshSettings();
    const model = echoModel();
    const taught = await threeSteps(model, settings);
    const direct = await threeSteps(model, { ...settings, headers: { ...settings.headers } }); // equal, not the same object
    expect(taught.firstStepConversions).toBe(0); // generateText converted it
    expect(direct.firstStepConversions).toBe(1); // converted by us, as a later step is
    expect(direct.run.result).toBe("done");
    expect(direct.calls).toEqual(taught.calls);
    expect(direct.calls[0]).toMatchObject({
      temperature: 0.4,
      providerOptions: { acme: { region: "eu" } },
      headers: { "x-tenant": settings.headers!["x-tenant"] },
    });
    expect(String(direct.calls[0]!.headers?.["user-agent"])).toMatch(/\bai\//); // the SDK's user agent
  });

  it("is learned for the process: a run of another model object with the same settings is direct too (a model made per request)", async () => {
    const settings = freshSettings();
    const taught = await threeSteps(echoModel(), settings);
    const other = await threeSteps(echoModel(), settings);
    expect(taught.firstStepConversions).toBe(0);
    expect(other.firstStepConversions).toBe(1);
    expect(other.run.result).toBe("done");
    expect(other.calls).toEqual(taught.calls);
  });

  it("gives each run its own options: a middleware that edits them in place changes no other run", async () => {
    const received: (string | undefined)[] = [];
    const model = ai.wrapLanguageModel({
      model: mockModel(text("done"), text("done"), text("done")),
      middleware: {
        specificationVersion: "v3",
        transformParams: async ({ params }) => {
          received.push(params.headers?.["x-edited"]);
          params.headers!["x-edited"] = "by an earlier run"; // in place, as some middleware does
          return params;
        },
      },
    });
    const settings = freshSettings();
    const runOnce = () => new PromptRunner({ model, modelSettings: settings }).run("go");
    await runOnce();
    await runOnce();
    await runOnce();
    expect(received).toEqual([undefined, undefined, undefined]);
  });

  it("hands a middleware the first step's params in the same order either way, so a cache keyed by JSON.stringify(params) (the SDK docs' caching middleware) finds it", async () => {
    const keys: string[] = [];
    const model = ai.wrapLanguageModel({
      model: mockModel(text("done"), text("done"), text("done"), text("done")),
      middleware: {
        specificationVersion: "v3",
        transformParams: async ({ params }) => {
          keys.push(JSON.stringify(omitSignal(params)));
          return params;
        },
      },
    });
    // With a tool (ai 7 orders a tool definition's keys unlike ai 6 and a direct step), and without any
    // (ai 7's generateText sends `toolChoice: { type: "auto" }` with no tools, a direct step none).
    for (const tools of [[echo], []]) {
      const settings = freshSettings();
      const runOnce = () =>
        new PromptRunner({ model, modelSettings: settings }).withTools(...tools).run("go");
      await runOnce(); // through generateText: it learns the options
      await runOnce(); // on the provider spec
    }
    expect(keys).toHaveLength(4);
    expect(keys[1]).toBe(keys[0]);
    expect(keys[3]).toBe(keys[2]);
    expect(keys[2]).not.toContain("toolChoice");
  });

  it("sends a provider option that is a class instance with toJSON as the SDK does, not a copy of its fields", async () => {
    class Budget {
      constructor(readonly cents: number) {}
      toJSON() {
        return `${this.cents / 100} EUR`;
      }
    }
    // Typed as JSON values: a JavaScript caller (or a cast) can pass one all the same.
    const budgeted = {
      ...freshSettings(),
      providerOptions: { acme: { budget: new Budget(250) } },
    } as unknown as AiSdkAdapterSettings;
    const model = echoModel();
    const taught = await threeSteps(model, budgeted);
    const next = await threeSteps(model, budgeted);
    const wire = (calls: typeof taught.calls) => JSON.stringify(calls[0]!.providerOptions);
    expect(wire(taught.calls)).toBe('{"acme":{"budget":"2.5 EUR"}}');
    expect(wire(next.calls)).toBe(wire(taught.calls));
  });

  it("goes through generateText for a prompt of other messages, or other settings", async () => {
    const settings = freshSettings();
    const model = echoModel();
    await threeSteps(model, settings);
    const parts = await threeSteps(model, settings, [
      { role: "user", content: [{ type: "text", text: "go" }] },
    ]);
    expect(parts.firstStepConversions).toBe(0);
    const warmer = await threeSteps(model, { ...settings, temperature: 0.9 });
    expect(warmer.firstStepConversions).toBe(0);
    expect(warmer.calls[0]).toMatchObject({ temperature: 0.9 });
  });

  it("leaves invalid messages to the SDK's validation, as before", async () => {
    const settings = freshSettings();
    const model = echoModel();
    await threeSteps(model, settings);
    const invalid = [{ role: "user", content: 42 }] as unknown as ai.ModelMessage[];
    const error = await new PromptRunner({ model, modelSettings: settings })
      .run(invalid as unknown as string)
      .catch((e: unknown) => e);
    const sdkError = await ai
      .generateText({ model: mockModel(text("never")), messages: invalid })
      .then(() => new Error("generateText accepted it"))
      .catch((e: unknown) => e as Error);
    expect(error).toBeInstanceOf(ToolLoopError);
    expect(((error as ToolLoopError).cause as Error).name).toBe(sdkError.name);
    expect(((error as ToolLoopError).cause as Error).message).toBe(sdkError.message);
  });

  it("goes through the SDK at every step while telemetry integrations are registered for the process", async () => {
    const settings = freshSettings();
    const model = echoModel();
    await threeSteps(model, settings);
    const steps: number[] = [];
    const integration = { onStepStart: () => void steps.push(steps.length) };
    // ai 7 names it registerTelemetry, ai 6 registerTelemetryIntegration; both keep it in one global.
    const register = ((ai as Record<string, unknown>).registerTelemetry ??
      (ai as Record<string, unknown>).registerTelemetryIntegration) as (i: object) => void;
    register(integration);
    try {
      const { run, firstStepConversions } = await threeSteps(model, settings);
      expect(run.result).toBe("done");
      expect(firstStepConversions).toBe(0);
      expect(steps).toHaveLength(3);
    } finally {
      const registered = (globalThis as { AI_SDK_TELEMETRY_INTEGRATIONS?: object[] })
        .AI_SDK_TELEMETRY_INTEGRATIONS!;
      registered.splice(registered.indexOf(integration), 1);
    }
  });
});
