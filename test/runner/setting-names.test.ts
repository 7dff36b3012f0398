// One name per setting and one type per concept (docs/glossary.md): the builders added for settings that
// had none, and the deprecated names that still compile.
import { describe, expect, expectTypeOf, it } from "vitest";
import {
  InvalidSettingError,
  PromptRunner,
  ToolNotFoundError,
  type ConversationNewTools,
  type NewToolsMode,
  type ProviderIdentity,
  type ProviderToolIdentity,
} from "entity-tools";
import { CodexAppServerAdapter } from "entity-tools/codex";
import { call, mockModel, text } from "../support/mock-model.js";

describe("withMaxUnknownToolCalls", () => {
  it("ends the run after that many unknown tools in a row, not the default 3", async () => {
    const model = mockModel(call("nope"), call("nope"), text("never"));
    const error = await new PromptRunner({ model })
      .withMaxUnknownToolCalls(2)
      .run("q")
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ToolNotFoundError);
    expect((error as ToolNotFoundError).message).toMatch(/unknown tools 2 times in a row/);
  });
});

describe("new-tools mode", () => {
  it("is one type for every backend; the old name is an alias", () => {
    expectTypeOf<ConversationNewTools>().toEqualTypeOf<NewToolsMode>();
    expectTypeOf<NewToolsMode>().toEqualTypeOf<"dynamic" | "restart" | "dispatch">();
  });

  it("Codex refuses dynamic, naming the option: its threads fix their tools when they start", () => {
    expect(() => new CodexAppServerAdapter({ newTools: "dynamic" })).toThrow(InvalidSettingError);
    expect(() => new CodexAppServerAdapter({ newTools: "dynamic" })).toThrow(
      /^newTools must be "restart" or "dispatch"/,
    );
    expect(new CodexAppServerAdapter({ newTools: "dispatch" }).newTools).toBe("dispatch");
  });
});

describe("provider identity", () => {
  it("is one type; a tool's binding is that identity and a method", () => {
    expectTypeOf<ProviderToolIdentity>().toExtend<ProviderIdentity>();
    expectTypeOf<keyof ProviderIdentity>().toEqualTypeOf<"providerClass" | "id" | "idType">();
  });
});
