// One name per setting and one type per concept (docs/glossary.md): the builders added for settings that
// had none, and the deprecated names that still compile.
import "../fixtures/store/register.js";
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
import { CustomerSearchTools } from "../fixtures/store/customer-search-tools.js";
import { call, mockModel, offeredAt, text } from "../support/mock-model.js";

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

describe("withMaxInjectedTools and withMaxInjectedTokens", () => {
  const everyone = () => mockModel(call("findCustomers", { text: "" }), text("ok")); // three customers
  const discovering = (model: ReturnType<typeof mockModel>) =>
    new PromptRunner({ model }).withTools(new CustomerSearchTools()).withToolProviderDiscovery();

  it("set the same budget as withToolProviderDiscovery's options", async () => {
    const byOption = everyone();
    await new PromptRunner({ model: byOption })
      .withTools(new CustomerSearchTools())
      .withToolProviderDiscovery({ maxInjectedTools: 2 })
      .run("q");
    const byBuilder = everyone();
    await discovering(byBuilder).withMaxInjectedTools(2).run("q");
    expect(offeredAt(byBuilder, 1)).toEqual(offeredAt(byOption, 1));
    expect(offeredAt(byBuilder, 1)).toHaveLength(4); // the two own tools and one customer's two

    const byTokens = everyone();
    await discovering(byTokens).withMaxInjectedTokens(1).run("q");
    expect(offeredAt(byTokens, 1)).toEqual(["searchCustomer", "findCustomers"]);
  });

  it("report a bad value under the builder's name", () => {
    const runner = new PromptRunner({ model: mockModel(text("ok")) });
    expect(() => runner.withMaxInjectedTools(0)).toThrow(
      /^withMaxInjectedTools\(maxInjectedTools\) must be a whole number of at least 1, got 0/,
    );
    expect(() => runner.withMaxInjectedTokens(1.5)).toThrow(
      /^withMaxInjectedTokens\(maxInjectedTokens\) must be/,
    );
    expect(() => runner.withToolTimeout(-1)).toThrow(/^withToolTimeout\(ms\) must be/);
  });
});

describe("the run's step count", () => {
  it("is totalIterations on the result and on RunFinished; the event's older iterations says the same", async () => {
    const finished: { totalIterations: number; iterations: number }[] = [];
    const run = await new PromptRunner({ model: mockModel(call("nope"), text("ok")) })
      .withObserver((event) => void (event.type === "RunFinished" && finished.push(event)))
      .run("q");
    expect(run.totalIterations).toBe(2);
    expect(finished).toEqual([expect.objectContaining({ totalIterations: 2, iterations: 2 })]);
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
