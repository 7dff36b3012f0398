// ai/internal promises nothing: its pieces are checked by what they do. Two same-name changes are
// simulated (the prompt converter's options reshaped; prepareRetries returning a function): the check
// names the problem, and a run on such an SDK completes through generateText with one warning event.
import * as realInternals from "ai/internal";
import { describe, expect, it, vi } from "vitest";
import { defineTool, type ToolLoopEvent } from "entity-tools";
import { checkInternals, type InternalModule } from "../../src/adapters/sdk-internals.js";
import { call, mockModel, text } from "../support/mock-model.js";

const real = realInternals as unknown as InternalModule;

/** The converter, its options reshaped: it now wants `{ messages }` where it took `{ prompt: { messages } }`. */
const reshapedConverter = ((options: { messages: unknown[] }) =>
  real.convertToLanguageModelPrompt({
    prompt: { messages: options.messages as never },
    supportedUrls: {},
    download: undefined,
  })) as unknown as InternalModule["convertToLanguageModelPrompt"];

/** prepareRetries now returns the retry function itself. */
const retriesAsFunction = ((options: Parameters<InternalModule["prepareRetries"]>[0]) =>
  real.prepareRetries(options).retry) as unknown as InternalModule["prepareRetries"];

const simulated = vi.hoisted(() => ({ change: "none" as "none" | "converter" | "retries" }));

vi.mock("ai/internal", async (importOriginal) => {
  const original = await importOriginal<Record<string, unknown>>();
  return {
    ...original,
    // ai 6 has neither: the mock must still answer for them.
    logWarnings: original["logWarnings"],
    mapToolResultOutput: original["mapToolResultOutput"],
    convertToLanguageModelPrompt: (...args: unknown[]) =>
      simulated.change === "converter"
        ? (reshapedConverter as (...a: unknown[]) => unknown)(...args)
        : (original["convertToLanguageModelPrompt"] as (...a: unknown[]) => unknown)(...args),
    prepareRetries: (...args: unknown[]) =>
      simulated.change === "retries"
        ? (retriesAsFunction as (...a: unknown[]) => unknown)(...args)
        : (original["prepareRetries"] as (...a: unknown[]) => unknown)(...args),
  };
});

const echo = defineTool<{ text: string }>({
  name: "echo",
  description: "Echo",
  inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
  execute: ({ text }) => `echo ${text}`,
});

describe("the SDK internals, checked by behaviour", () => {
  it("the installed ai's internals pass the check", async () => {
    expect((await checkInternals(real)).problem).toBeUndefined();
  });

  it.each<[string, Partial<InternalModule>, RegExp]>([
    [
      "the converter's options reshaped",
      { ...real, convertToLanguageModelPrompt: reshapedConverter },
      /convertToLanguageModelPrompt/,
    ],
    ["prepareRetries returning a function", { ...real, prepareRetries: retriesAsFunction }, /prepareRetries/],
    ["a missing export", { prepareRetries: real.prepareRetries }, /no longer exports/],
  ])("%s: the check names the problem", async (_name, module, problem) => {
    expect((await checkInternals(module)).problem).toMatch(problem);
  });

  it.each([
    ["prepareRetries returns a function", "retries", /prepareRetries.*generateText/],
    ["the converter's options are reshaped", "converter", /convertToLanguageModelPrompt.*generateText/],
  ] as const)(
    "a run on an SDK where %s completes through generateText, with one warning",
    async (_name, change, warning) => {
      simulated.change = change;
      vi.resetModules(); // the adapter checks the internals once per process: a fresh copy checks them again
      const { PromptRunner: FreshRunner } = await import("entity-tools");
      const events: ToolLoopEvent[] = [];
      const model = mockModel(call("echo", { text: "a" }), call("echo", { text: "b" }), text("done"));
      const run = await new FreshRunner({ model })
        .withTools(echo)
        .withObserver((e) => events.push(e))
        .run("go");
      expect(run.result).toBe("done");
      expect(model.doGenerateCalls).toHaveLength(3);
      // The third step's prompt still holds every earlier call and result, as the SDK builds it.
      expect(model.doGenerateCalls[2]!.prompt.map((m) => m.role)).toEqual([
        "user",
        "assistant",
        "tool",
        "assistant",
        "tool",
      ]);
      const warnings = events.filter((e) => e.type === "ModelWarning");
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatchObject({ iteration: 2, message: expect.stringMatching(warning) });
    },
  );
});
