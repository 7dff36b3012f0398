// One provider identity everywhere (issue 43): the class's name and the typed id, through one key
// (`providerKeyOf`), in what a user sees: the tools offered, the discoveries reported, the cost, and
// the live objects a continued conversation finds.
import { describe, expect, it, vi } from "vitest";
import {
  LlmTool,
  PromptRunner,
  ToolProvider,
  type AnyTool,
  type ToolInjectionStrategy,
  type ToolLoopEvent,
  type ToolProviderDiscoveredEvent,
} from "entity-tools";
import { call, mockModel, offeredAt, text, toolResultsSeenAt, type MockTurn } from "../support/mock-model.js";
import { memoryTracer } from "../support/span-tree.js";

@ToolProvider({ prefix: "account" })
class Account {
  opened = 0;
  constructor(public id: string | number) {}
  @LlmTool("This account's balance")
  balance(): string {
    return `balance of ${typeof this.id} ${String(this.id)}`;
  }
  @LlmTool("Open this account")
  open(): string {
    this.opened++;
    return `${String(this.id)} opened ${this.opened} time(s) on this object`;
  }
}

class Bank {
  constructor(private readonly accounts: () => Account[]) {}
  @LlmTool("Find the accounts")
  find(): Account[] {
    return this.accounts();
  }
}

/** A model turn calling every balance tool it is offered. */
const everyBalance: MockTurn = (o) => ({
  toolCalls: (o.tools ?? [])
    .filter((t) => t.name.endsWith("_balance"))
    .map((t) => ({ toolName: t.name, input: {} })),
});

const handleKey = "a-handle-key-of-16-bytes";

const discoveries = (events: readonly ToolLoopEvent[]) =>
  events.filter((e): e is ToolProviderDiscoveredEvent => e.type === "ToolProviderDiscovered");

describe("one provider identity", () => {
  it('ids 1 and "1" are two discoveries and two cost entries, each with its own calls', async () => {
    const events: ToolLoopEvent[] = [];
    const model = mockModel(
      call("find"),
      everyBalance, // the natural name, and the other provider's renamed one
      text("done"),
    );
    const { tracer, spans } = memoryTracer();
    const run = await new PromptRunner({ model })
      .withTools(new Bank(() => [new Account(1), new Account("1")]))
      .withToolProviderDiscovery()
      .withPricing({ input: 1, output: 1 })
      .withTelemetry({ tracer })
      .withObserver((e) => events.push(e))
      .run("balances");
    const balances = offeredAt(model, 1).filter((n) => n.endsWith("_balance"));
    expect(balances).toHaveLength(2);
    expect(balances[0]).toBe("account_1_balance");
    expect(toolResultsSeenAt(model, 2).slice(-2)).toEqual(["balance of number 1", "balance of string 1"]);
    const number = { providerClass: "Account", id: 1, idType: "number" };
    const string = { providerClass: "Account", id: "1", idType: "string" };
    expect(discoveries(events).map((e) => e.identity)).toEqual([number, string]);
    expect(discoveries(events)[1]!.renamedTools.map((r) => r.requested)).toContain("account_1_balance");
    expect(run.cost!.perProvider.map((p) => [p.identity, p.calls])).toEqual([
      [number, 1],
      [string, 1],
    ]);
    const injected = spans()
      .flatMap((s) => s.events)
      .find((e) => e.name === "tools.injected")!.attributes!;
    expect(injected["entity_tools.provider.id"]).toEqual(["1", "1"]);
    expect(injected["entity_tools.provider.id_type"]).toEqual(["number", "string"]);
  });

  it.each(["withToolProviderDiscovery", "run"] as const)(
    "a handles-mode provider with id -0 is found live on continueFrom (resolveProvider given to %s is not asked)",
    async (where) => {
      const account = new Account(-0);
      const events: ToolLoopEvent[] = [];
      const discovery = { binding: "handles", classes: [Account], handleKey } as const;
      const first = await new PromptRunner({ model: mockModel(call("find"), text("found")) })
        .withTools(new Bank(() => [account]))
        .withToolProviderDiscovery(discovery)
        .withObserver((e) => events.push(e))
        .run("find it");
      const handle = discoveries(events)[0]!.handle!;
      expect(discoveries(events)[0]!.identity).toEqual({ providerClass: "Account", id: 0, idType: "number" });
      expect(handle).toMatch(/^Account#0~/);

      const resolveProvider = vi.fn(() => new Account(-0));
      const model = mockModel(call("account_open", { handle }), call("account_open", { handle }), text("ok"));
      await new PromptRunner({ model })
        .withTools(new Bank(() => [account]))
        .withToolProviderDiscovery(where === "run" ? discovery : { ...discovery, resolveProvider })
        .run("open it twice", {
          continueFrom: first.snapshot,
          ...(where === "run" ? { resolveProvider } : {}),
        });
      expect(toolResultsSeenAt(model, 2).slice(-2)).toEqual([
        "0 opened 1 time(s) on this object",
        "0 opened 2 time(s) on this object",
      ]);
      expect(resolveProvider).not.toHaveBeenCalled();
      expect(account.opened).toBe(2);
    },
  );

  it("tools whose origin carries only `identity` (as the deprecation notes advise) are renamed, not replaced", async () => {
    // A strategy that binds tools itself: the same natural name for two providers.
    const built = (account: Account): AnyTool => ({
      name: "account_42_balance",
      description: "balance",
      inputSchema: { type: "object", properties: {} },
      execute: () => account.balance(),
      origin: {
        instance: account,
        providerClass: Account,
        identity: {
          providerClass: "Account",
          id: account.id,
          idType: typeof account.id as "number" | "string",
        },
        methodName: "balance",
      },
    });
    const binds: ToolInjectionStrategy = {
      evaluateToolResult: ({ lastToolCall }) =>
        lastToolCall.toolName === "find" ? { add: [built(new Account(42)), built(new Account("42"))] } : {},
    };
    const events: ToolLoopEvent[] = [];
    const model = mockModel(call("find"), everyBalance, text("done"));
    await new PromptRunner({ model })
      .withTools(new Bank(() => []))
      .withInjectionStrategy(binds)
      .withObserver((e) => events.push(e))
      .run("balances");
    const offered = offeredAt(model, 1).filter((n) => n.endsWith("_balance"));
    expect(offered).toHaveLength(2);
    expect(offered[1]).toMatch(/^account_42_[a-z0-9]+_balance$/);
    expect(toolResultsSeenAt(model, 2).slice(-2)).toEqual(["balance of number 42", "balance of string 42"]);
    expect(discoveries(events).map((e) => e.identity.idType)).toEqual(["number", "string"]);
  });
});
