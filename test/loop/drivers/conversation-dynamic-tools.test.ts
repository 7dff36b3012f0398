// The conversation driver in dynamic mode, on an in-memory conversation backend: the tool set travels
// with the call's result, and a backend that cannot offer it in time makes the run go on in a new
// conversation, with an event that says why. (The real Claude Code path: test/claude/.)
import "../../fixtures/store/register.js";
import { describe, expect, it } from "vitest";
import {
  PromptRunner,
  type Conversation,
  type ConversationAdapter,
  type ConversationSetup,
  type ConversationToolResult,
  type ConversationTurn,
  type ToolLoopEvent,
} from "entity-tools";
import { CustomerSearchTools } from "../../fixtures/store/customer-search-tools.js";
import { watchRestarts } from "../../support/restart-observers.js";

/** A dynamic backend whose model searches, then calls the spend tool; it can fail to take new tools. */
class ScriptedDynamicBackend implements ConversationAdapter {
  readonly supportsDynamicTools = true;
  readonly newTools = "dynamic" as const;
  readonly opened: string[][] = [];
  readonly results: ConversationToolResult[] = [];
  readonly sent: string[] = [];

  constructor(
    private readonly takesNewTools: boolean,
    /** Called when the run closes a conversation. */
    private readonly closed: () => void = () => {},
  ) {}

  async openConversation(setup: ConversationSetup): Promise<Conversation> {
    this.opened.push(setup.tools.map((t) => t.name));
    let tools = setup.tools.map((t) => t.name);
    const call = async (toolName: string, input: unknown) => {
      const result = await setup.callTool({ toolCallId: `c${this.results.length}`, toolName, input });
      this.results.push(result);
      if (result.tools) tools = result.tools.map((t) => t.name);
      return result;
    };
    return {
      send: async (text: string): Promise<ConversationTurn> => {
        this.sent.push(text);
        if (!tools.includes("customer_c123_getAverageSpend")) {
          const result = await call("searchCustomer", { name: "John Smith" });
          if (result.tools && !this.takesNewTools)
            return {
              text: "",
              stopped: true,
              toolsNotOffered: { toolNames: result.tools.map((t) => t.name), reason: "no relist" },
            };
        }
        await call("customer_c123_getAverageSpend", {});
        return { text: "46.83 USD", stopped: false };
      },
      close: async () => this.closed(),
    };
  }
}

describe("a conversation backend with dynamic tools", () => {
  it("gets the whole new tool set with the result of the call that changed it, and nothing with a call that did not", async () => {
    const backend = new ScriptedDynamicBackend(true);
    const run = await new PromptRunner({ adapter: backend })
      .withTools(new CustomerSearchTools())
      .withToolProviderDiscovery()
      .run("Spend?");
    expect(run.result).toBe("46.83 USD");
    expect(backend.opened).toHaveLength(1);
    expect(backend.results[0]!.tools?.map((t) => t.name)).toEqual([
      "searchCustomer",
      "findCustomers",
      "customer_c123_getAverageSpend",
      "customer_c123_recentOrders",
    ]);
    expect(backend.results[0]!.stopTurn).toBe(false);
    expect(backend.results[1]!.tools).toBeUndefined();
  });

  it("a backend that could not offer them ends the turn: observers hear why, and a new conversation has them", async () => {
    const backend = new ScriptedDynamicBackend(false);
    const events: ToolLoopEvent[] = [];
    const run = await new PromptRunner({ adapter: backend })
      .withTools(new CustomerSearchTools())
      .withToolProviderDiscovery()
      .withObserver((e) => events.push(e))
      .run("Spend?");
    expect(run.result).toBe("46.83 USD");
    expect(events.filter((e) => e.type === "DynamicToolsFallback")).toEqual([
      expect.objectContaining({
        fallback: "restart",
        reason: "no relist",
        toolNames: expect.arrayContaining(["customer_c123_getAverageSpend"]) as unknown,
      }),
    ]);
    expect(backend.opened).toHaveLength(2);
    expect(backend.opened[1]).toContain("customer_c123_getAverageSpend");
    expect(backend.sent[1]).toContain("You already made these tool calls for this task");
  });

  it("the fallback is one restart for every observer: the counters, telemetry and the run log, each with its cause", async () => {
    const { runner, reported } = watchRestarts(
      new PromptRunner({ adapter: new ScriptedDynamicBackend(false) })
        .withTools(new CustomerSearchTools())
        .withToolProviderDiscovery(),
    );
    const run = await runner.run("Spend?");

    const offered = [
      "searchCustomer",
      "findCustomers",
      "customer_c123_getAverageSpend",
      "customer_c123_recentOrders",
    ];
    expect(run.counters.restarts).toBe(1);
    const { telemetry, log } = reported();
    expect(telemetry).toEqual([{ "entity_tools.cause": "fallback", "entity_tools.tools": offered }]);
    expect(log).toEqual([
      { type: "restart", step: 1, cause: "fallback", reason: "no relist", tools: offered },
    ]);
  });

  it("observers hear of the fallback when the thread is stopped, before the old conversation is closed", async () => {
    const seen: string[] = [];
    const details = ["RunRestarted", "DynamicToolsFallback", "ConversationRestarted", "RunFinished"];
    const run = await new PromptRunner({
      adapter: new ScriptedDynamicBackend(false, () => seen.push("closed")),
    })
      .withTools(new CustomerSearchTools())
      .withToolProviderDiscovery()
      .withObserver((e) => details.includes(e.type) && seen.push(e.type))
      .run("Spend?");
    expect(run.result).toBe("46.83 USD");
    // The restart's one event, its details, then the old conversation closed; the new one at the run's end.
    expect(seen).toEqual([
      "RunRestarted",
      "DynamicToolsFallback",
      "ConversationRestarted",
      "closed",
      "closed",
      "RunFinished",
    ]);
  });

  it("a close that fails ends the run with its error, once, after observers heard why the thread was stopped", async () => {
    const seen: string[] = [];
    const backend = new ScriptedDynamicBackend(false, () => {
      seen.push("closed");
      throw new Error("socket gone");
    });
    const running = new PromptRunner({ adapter: backend })
      .withTools(new CustomerSearchTools())
      .withToolProviderDiscovery()
      .withObserver((e) => e.type === "DynamicToolsFallback" && seen.push(`${e.type}: ${e.reason}`))
      .run("Spend?");
    await expect(running).rejects.toThrow("socket gone");
    expect(seen).toEqual(["DynamicToolsFallback: no relist", "closed"]);
    expect(backend.opened).toHaveLength(1);
  });
});
