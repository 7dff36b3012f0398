// The driver of conversation backends (Codex, Claude Code), on an in-memory backend with a fixed tool set:
// a discovery stops the turn and the run goes on in a new conversation told what was done; a final
// message is judged like a step backend's, and a repair is the next thing the backend is sent.
import "../../fixtures/store/register.js";
import { describe, expect, it } from "vitest";
import {
  defineTool,
  PromptRunner,
  type Conversation,
  type ConversationAdapter,
  type ConversationSetup,
  type ConversationTurn,
  type ModelToolCall,
  type ToolLoopEvent,
  ToolLoopError,
} from "entity-tools";
import { CustomerSearchTools } from "../../fixtures/store/customer-search-tools.js";
import { watchRestarts } from "../../support/restart-observers.js";
import { memoryTracer, spanTree } from "../../support/span-tree.js";

/** A backend with fixed tools whose model finds John, then asks for his spend and answers. */
class FixedToolsBackend implements ConversationAdapter {
  readonly supportsDynamicTools = false;
  readonly newTools = "restart" as const;
  readonly opened: string[][] = [];
  readonly sent: string[] = [];
  private answers = ["about 47 USD", '{"spend":46.83}'];

  async openConversation(setup: ConversationSetup): Promise<Conversation> {
    this.opened.push(setup.tools.map((t) => t.name));
    const thread = this.opened.length;
    return {
      send: async (input: string): Promise<ConversationTurn> => {
        this.sent.push(input);
        if (thread === 1) {
          const found = await setup.callTool({
            toolCallId: "t1",
            toolName: "searchCustomer",
            input: { name: "John Smith" },
          });
          return { text: "", stopped: found.stopTurn === true, usage: { inputTokens: 100, outputTokens: 5 } };
        }
        if (this.sent.length === 2)
          await setup.callTool({ toolCallId: "t2", toolName: "customer_c123_getAverageSpend", input: {} });
        return { text: this.answers.shift()!, stopped: false, usage: { inputTokens: 200, outputTokens: 10 } };
      },
      close: async () => {},
    };
  }
}

/** A backend whose every thread makes one call (the next of `calls`) and stops when told to, 1 000 tokens a turn. */
class StoppingBackend implements ConversationAdapter {
  readonly supportsDynamicTools = false;
  readonly newTools = "restart" as const;
  constructor(
    private readonly calls: ModelToolCall[],
    private readonly text = "",
    private readonly otherModels?: ConversationTurn["otherModels"],
  ) {}

  async openConversation(setup: ConversationSetup): Promise<Conversation> {
    const call = this.calls.shift()!;
    return {
      send: async (): Promise<ConversationTurn> => {
        const result = await setup.callTool(call);
        return {
          text: this.text,
          stopped: result.stopTurn,
          usage: { inputTokens: 1000, outputTokens: 10 },
          modelId: "m",
          ...(this.otherModels ? { otherModels: this.otherModels } : {}),
        };
      },
      close: async () => {},
    };
  }
}

const stoppingCalls: ModelToolCall[] = [
  { toolCallId: "t1", toolName: "searchCustomer", input: { name: "John Smith" } },
  { toolCallId: "t2", toolName: "customer_c123_getAverageSpend", input: {} },
];

describe("conversation driver", () => {
  it("restarts the thread with the new tools and a transcript, then repairs the final answer", async () => {
    const backend = new FixedToolsBackend();
    const events: ToolLoopEvent[] = [];
    const run = await new PromptRunner({ adapter: backend })
      .withTools(new CustomerSearchTools())
      .withToolProviderDiscovery()
      .withObserver((e) => events.push(e))
      .run("What does John Smith spend?", {
        output: { type: "object", properties: { spend: { type: "number" } }, required: ["spend"] },
      });

    expect(run.result).toEqual({ spend: 46.83 });
    expect(backend.opened).toEqual([
      ["searchCustomer", "findCustomers"],
      ["searchCustomer", "findCustomers", "customer_c123_getAverageSpend", "customer_c123_recentOrders"],
    ]);
    const [, restarted, repair] = backend.sent;
    expect(restarted).toMatch(
      /^What does John Smith spend\?\n\nYou already made these tool calls for this task/,
    );
    expect(restarted).toContain('- searchCustomer({"name":"John Smith"}) → ');
    expect(restarted).toContain(
      "Your tools now include: searchCustomer, findCustomers, customer_c123_getAverageSpend",
    );
    expect(repair).toMatch(
      /^Your answer could not be used:\n- .*\nReply again with only the corrected JSON object/,
    );
    expect(events.filter((e) => e.type === "ConversationRestarted")).toHaveLength(1);
    expect(run.counters).toMatchObject({ restarts: 1, toolsInjected: run.injectedTools.length });
    // Each call and each final message is an iteration; every turn's tokens count.
    expect(run.totalIterations).toBe(4);
    expect(run.usage).toMatchObject({ inputTokens: 500, outputTokens: 25 });
    expect(run.counters.modelCalls).toBe(4);
  });

  it("withPricing: each turn's tokens are its last step's, a stopped turn's too; the steps' tokens add up to usage", async () => {
    const events: ToolLoopEvent[] = [];
    const run = await new PromptRunner({ adapter: new FixedToolsBackend() })
      .withTools(new CustomerSearchTools())
      .withToolProviderDiscovery()
      .withPricing({ input: 1, output: 10 })
      .withObserver((e) => events.push(e))
      .run("What does John Smith spend?", {
        output: { type: "object", properties: { spend: { type: "number" } }, required: ["spend"] },
      });
    // Thread 1 stops at its call (step 1); thread 2 calls (step 2) and answers (3), and answers again (4).
    const tokens = (inputTokens: number, outputTokens: number) => ({
      inputTokens,
      outputTokens,
      cachedInputTokens: 0,
      reasoningTokens: 0,
    });
    expect(run.cost?.perStep).toEqual([
      { iteration: 1, usage: tokens(100, 5), cost: 150e-6 },
      { iteration: 2, usage: tokens(0, 0), cost: 0 },
      { iteration: 3, usage: tokens(200, 10), cost: 300e-6 },
      { iteration: 4, usage: tokens(200, 10), cost: 300e-6 },
    ]);
    expect(run.cost?.total).toBeCloseTo(750e-6, 12);
    expect(run.usage).toEqual(tokens(500, 25));
    const responded = events.flatMap((e) => (e.type === "ModelResponded" ? [e.usage.inputTokens] : []));
    expect(responded.reduce((a, b) => a + b)).toBe(500);
  });

  it("withPricing: a turn a stop ended is priced on its last step, and the providers it offered there get their share", async () => {
    const backend = new StoppingBackend([...stoppingCalls]);
    const run = await new PromptRunner({ adapter: backend })
      .withTools(new CustomerSearchTools())
      .withToolProviderDiscovery()
      .withApproval((call) => call.toolName === "customer_c123_getAverageSpend")
      .withPricing({ input: 1, output: 10 })
      .run("What does John Smith spend?");
    // Thread 1 stops for the new thread at step 1, thread 2 for the approval at step 2.
    expect(run.status).toBe("awaiting-approval");
    const turn = { inputTokens: 1000, outputTokens: 10, cachedInputTokens: 0, reasoningTokens: 0 };
    expect(run.cost?.perStep).toEqual([
      { iteration: 1, modelId: "m", usage: turn, cost: 1100e-6 },
      { iteration: 2, modelId: "m", usage: turn, cost: 1100e-6 },
    ]);
    expect(run.usage).toEqual({ ...turn, inputTokens: 2000, outputTokens: 20 });
    // Step 2 offered the customer's tools: its share of that step's input cost.
    const [customer] = run.cost!.perProvider;
    expect(customer).toMatchObject({ providerClass: "Customer", instanceId: "c123" });
    expect(customer!.cost).toBeGreaterThan(0);
    expect(customer!.cost).toBeCloseTo(customer!.definitionTokens * 1e-6, 12);
  });

  it("withPricing: a turn's other models (a subagent's) are priced each as itself on the turn's last step, and get the providers no share; telemetry has their own chat span", async () => {
    const { tracer, spans } = memoryTracer();
    const small = { modelId: "small", usage: { inputTokens: 400, outputTokens: 100 } };
    const run = await new PromptRunner({ adapter: new StoppingBackend([...stoppingCalls], "", [small]) })
      .withTools(new CustomerSearchTools())
      .withToolProviderDiscovery()
      .withApproval((call) => call.toolName === "customer_c123_getAverageSpend")
      .withPricing((modelId) => (modelId === "small" ? { input: 0.5, output: 2 } : { input: 1, output: 10 }))
      .withTelemetry({ tracer })
      .run("What does John Smith spend?");

    const turn = { inputTokens: 1000, outputTokens: 10, cachedInputTokens: 0, reasoningTokens: 0 };
    const helper = { inputTokens: 400, outputTokens: 100, cachedInputTokens: 0, reasoningTokens: 0 };
    expect(run.cost?.perStep).toEqual([
      { iteration: 1, modelId: "m", usage: turn, cost: 1100e-6 },
      { iteration: 1, modelId: "small", usage: helper, cost: 400e-6 },
      { iteration: 2, modelId: "m", usage: turn, cost: 1100e-6 },
      { iteration: 2, modelId: "small", usage: helper, cost: 400e-6 },
    ]);
    expect(run.cost?.total).toBeCloseTo(3000e-6, 12);
    expect(run.usage).toEqual({ ...turn, inputTokens: 2800, outputTokens: 220 });
    // The providers' share is of the loop's model's input only, as without the other model.
    const [customer] = run.cost!.perProvider;
    expect(customer!.cost).toBeCloseTo(customer!.definitionTokens * 1e-6, 12);
    const chats = spans().filter((s) => s.name.startsWith("chat"));
    const tokens = chats.map((s) => [
      s.name,
      s.attributes["entity_tools.step"],
      s.attributes["gen_ai.usage.input_tokens"],
    ]);
    expect(tokens.sort()).toEqual([
      ["chat m", 1, 1000],
      ["chat m", 2, 1000],
      ["chat small", 1, 400],
      ["chat small", 2, 400],
    ]);
  });

  it("a new thread is one restart for every observer: the counters, telemetry and the run log, each with its cause", async () => {
    const { runner, reported } = watchRestarts(
      new PromptRunner({ adapter: new FixedToolsBackend() })
        .withTools(new CustomerSearchTools())
        .withToolProviderDiscovery(),
    );
    const run = await runner.run("What does John Smith spend?");

    const found = ["customer_c123_getAverageSpend", "customer_c123_recentOrders"];
    expect(run.counters.restarts).toBe(1);
    const { telemetry, log } = reported();
    expect(telemetry).toEqual([{ "entity_tools.cause": "new-thread", "entity_tools.tools": found }]);
    expect(log).toEqual([
      {
        type: "restart",
        step: 1,
        cause: "new-thread",
        reason: `this backend cannot add ${found.join(", ")} to a running thread`,
        tools: found,
      },
    ]);
  });

  it("withTelemetry: a turn a stop ended has its tokens and model on its last step's chat span", async () => {
    const { tracer, spans } = memoryTracer();
    const run = await new PromptRunner({
      adapter: new StoppingBackend([...stoppingCalls], "Looking John up."),
    })
      .withTools(new CustomerSearchTools())
      .withToolProviderDiscovery()
      .withApproval((call) => call.toolName === "customer_c123_getAverageSpend")
      .withTelemetry({ tracer, recordContent: true })
      .run("What does John Smith spend?");

    expect(run.status).toBe("awaiting-approval");
    expect(spanTree(spans())).toEqual([
      "entity_tools.run",
      "  · tools.restart customer_c123_getAverageSpend,customer_c123_recentOrders by new-thread",
      "  chat m",
      "  execute_tool searchCustomer",
      "    · tools.injected customer_c123_getAverageSpend,customer_c123_recentOrders by searchCustomer from Customer:c123",
      "  chat m", // the approval pause: its call never ran
    ]);
    const chats = spans().filter((s) => s.name.startsWith("chat"));
    for (const [i, chat] of chats.entries())
      expect(chat.attributes).toMatchObject({
        "entity_tools.step": i + 1,
        "gen_ai.request.model": "m",
        "gen_ai.usage.input_tokens": 1000,
        "gen_ai.usage.output_tokens": 10,
        "entity_tools.tool_calls": 1,
        "entity_tools.response.text": "Looking John up.",
      });
    // The chat spans' tokens add up to the run span's, as to the run's usage.
    const runSpan = spans().find((s) => s.name === "entity_tools.run")!;
    expect(runSpan.attributes["gen_ai.usage.input_tokens"]).toBe(run.usage.inputTokens);
    expect(run.usage.inputTokens).toBe(2000);
  });

  it("a new thread's transcript says where it cut a long result, and how to read the rest", async () => {
    // 2 500 characters of a policy, then a search that discovers John: the new thread is told both calls.
    const policy = `Refunds: ${"r".repeat(2_490)}END`;
    const readPolicy = defineTool({
      name: "readPolicy",
      description: "The refund policy",
      execute: () => policy,
    });
    const sent: string[] = [];
    const backend: ConversationAdapter = {
      supportsDynamicTools: false,
      newTools: "restart",
      openConversation: async (setup) => ({
        send: async (input) => {
          sent.push(input);
          if (sent.length > 1)
            return { text: "done", stopped: false, usage: { inputTokens: 1, outputTokens: 1 } };
          await setup.callTool({ toolCallId: "t1", toolName: "readPolicy", input: {} });
          const found = await setup.callTool({
            toolCallId: "t2",
            toolName: "searchCustomer",
            input: { name: "John Smith" },
          });
          return { text: "", stopped: found.stopTurn === true, usage: { inputTokens: 1, outputTokens: 1 } };
        },
        close: async () => {},
      }),
    };
    await new PromptRunner({ adapter: backend })
      .withTools(new CustomerSearchTools(), readPolicy)
      .withToolProviderDiscovery()
      .run("Can John Smith get a refund?");

    const restarted = sent[1]!;
    const line = restarted.split("\n- ").find((l) => l.startsWith("readPolicy"))!;
    expect(line).toContain(
      `readPolicy({}) → ${policy.slice(0, 2_000)}\n[truncated: the result was ${policy.length} characters; the first 2000 are shown]`,
    );
    expect(line).not.toContain("END");
    expect(restarted).toContain("A result cut here can be read again whole by calling its tool again.");
  });
});

it("a turn that fails as a call's result comes back: the failed run's conversation answers the call once", async () => {
  let started!: () => void;
  let finish!: (value: string) => void;
  const running = new Promise<void>((resolve) => (started = resolve));
  const slow = defineTool({
    name: "slow",
    description: "Answers when told to",
    execute: () => (started(), new Promise<string>((resolve) => (finish = resolve))),
  });
  let call: Promise<unknown> | undefined;
  // The backend's turn fails just as the call's result arrives (the app-server went away mid-call).
  const backend: ConversationAdapter = {
    supportsDynamicTools: false,
    newTools: "restart",
    openConversation: async (setup) => ({
      send: async () => {
        call = setup.callTool({ toolCallId: "t1", toolName: "slow", input: {} }).catch((e: unknown) => e);
        await running;
        finish("late");
        throw new Error("the app-server went away");
      },
      close: async () => {},
    }),
  };
  const error = await new PromptRunner({ adapter: backend })
    .withTools(slow)
    .run("q")
    .catch((e: unknown) => e);
  await call; // the call has settled: nothing of it comes later
  expect(error).toBeInstanceOf(ToolLoopError);
  const answers = (error as ToolLoopError).conversationHistory.flatMap((m) =>
    m.role === "tool" ? m.content.filter((p) => p.type === "tool-result" && p.toolCallId === "t1") : [],
  );
  // One result for the call, whichever came first: a second would make the provider refuse the conversation.
  expect(answers).toHaveLength(1);
});
