import "../fixtures/store/register.js";
import { describe, expect, it } from "vitest";
import {
  defineTool,
  MaxIterationsExceededError,
  OutputValidationError,
  PromptRunner,
  ToolLoopAbortedError,
  ToolNotFoundError,
} from "entity-tools";
import { SpendAnswer } from "../fixtures/store/answers.js";
import { CustomerSearchTools } from "../fixtures/store/customer-search-tools.js";
import { call, mockModel, offeredAt, text, toolResultsSeenAt } from "../support/mock-model.js";

const errorsSeen = (model: ReturnType<typeof mockModel>, index: number) => {
  const prompt = model.doGenerateCalls[index]?.prompt ?? [];
  return prompt.flatMap((m) =>
    m.role === "tool"
      ? m.content.flatMap((p) =>
          p.type === "tool-result" && p.output.type === "error-text" ? [p.output.value] : [],
        )
      : [],
  );
};

describe("bad calls become error results the model reads, and the loop goes on", () => {
  it("unknown tool: did you mean, then the model recovers", async () => {
    const model = mockModel(
      call("customer_c999_getAverageSpend"),
      call("searchCustomr", { name: "x" }),
      text("sorry"),
    );
    const run = await new PromptRunner({ model })
      .withTools(new CustomerSearchTools())
      .withToolProviderDiscovery()
      .run("q");
    expect(errorsSeen(model, 1)).toEqual([
      'Unknown tool "customer_c999_getAverageSpend". Available tools: searchCustomer, findCustomers.',
    ]);
    expect(errorsSeen(model, 2)[1]).toBe(
      'Unknown tool "searchCustomr". Did you mean: searchCustomer? Available tools: searchCustomer, findCustomers.',
    );
    expect(run.result).toBe("sorry");
    expect(run.counters.toolFailures).toBe(2);
  });

  it("three unknown calls in a row: ToolNotFoundError with the conversation", async () => {
    const model = mockModel(call("nope1"), call("nope2"), call("nope3"), text("never"));
    const error = await new PromptRunner({ model })
      .withTools(new CustomerSearchTools())
      .run("q")
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ToolNotFoundError);
    expect(error).toMatchObject({
      requestedTool: "nope3",
      availableTools: ["searchCustomer", "findCustomers"],
      totalIterations: 3,
    });
    expect((error as ToolNotFoundError).conversationHistory).toHaveLength(7);
  });

  it("invalid arguments name the bad fields and never call the method", async () => {
    let calls = 0;
    const lookup = defineTool<{ id: string }>({
      name: "lookup",
      description: "Look up",
      inputSchema: {
        type: "object",
        properties: { id: { type: "string" } },
        required: ["id"],
        additionalProperties: false,
      },
      execute: ({ id }) => (calls++, id),
    });
    const model = mockModel(
      call("lookup", { id: 7, extra: true }),
      call("lookup", "{not json"),
      call("lookup", [1]),
      text("gave up"),
    );
    await new PromptRunner({ model }).withTools(lookup).run("q");
    expect(calls).toBe(0);
    expect(errorsSeen(model, 3)).toEqual([
      'Invalid arguments for "lookup": unexpected field "extra"; field "id" must be string.',
      'Invalid arguments for "lookup": the arguments are not valid JSON. Send a JSON object keyed by parameter name.',
      'Invalid arguments for "lookup": expected a JSON object keyed by parameter name, got an array.',
    ]);
  });

  it("a tool that throws: its message (not the stack) goes back", async () => {
    const boom = defineTool({
      name: "boom",
      description: "Fails",
      execute: () => {
        throw new Error("database unavailable");
      },
    });
    const model = mockModel(call("boom"), text("it failed"));
    const run = await new PromptRunner({ model }).withTools(boom).run("q");
    expect(errorsSeen(model, 1)).toEqual(['Tool "boom" failed: database unavailable']);
    expect(JSON.stringify(run.conversationHistory)).not.toContain("at ");
  });

  it("several calls in one message run in order, each evaluated, results kept in order", async () => {
    const order: string[] = [];
    const tool = (name: string) =>
      defineTool({ name, description: name, execute: () => (order.push(name), name) });
    const model = mockModel(
      { toolCalls: [{ toolName: "a" }, { toolName: "b" }, { toolName: "c" }] },
      text("ok"),
    );
    const strategyOrder: string[] = [];
    const run = await new PromptRunner({ model })
      .withTools(tool("a"), tool("b"), tool("c"))
      .withInjectionStrategy({
        evaluateToolResult: (ctx) => (strategyOrder.push(ctx.lastToolCall.toolName), {}),
      })
      .run("q");
    expect(order).toEqual(["a", "b", "c"]);
    expect(strategyOrder).toEqual(["a", "b", "c"]);
    expect(toolResultsSeenAt(model, 1)).toEqual(["a", "b", "c"]);
    expect(run.conversationHistory[2]).toMatchObject({
      role: "tool",
      content: [{ toolName: "a" }, { toolName: "b" }, { toolName: "c" }],
    });
  });
});

describe("limits", () => {
  it("max iterations: MaxIterationsExceededError carrying the conversation", async () => {
    const ping = defineTool({ name: "ping", description: "Ping", execute: () => "pong" });
    const model = mockModel(...Array.from({ length: 10 }, () => call("ping")));
    const error = await new PromptRunner({ model })
      .withTools(ping)
      .withMaxToolIterations(3)
      .run("q")
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MaxIterationsExceededError);
    expect(error).toMatchObject({ maxIterations: 3, totalIterations: 3 });
    expect((error as MaxIterationsExceededError).conversationHistory).toHaveLength(7);
    expect(model.doGenerateCalls).toHaveLength(3);
  });

  it("createObject repairs invalid output once, inside the same loop, without re-running tools", async () => {
    let searches = 0;
    const tools = new CustomerSearchTools();
    const counting = defineTool<{ name: string }>({
      name: "searchCustomer",
      description: "Find a customer",
      inputSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
      execute: ({ name }) => (searches++, tools.searchCustomer(name)),
    });
    const model = mockModel(
      call("searchCustomer", { name: "John Smith" }),
      text('{"customerName":"John Smith","averageMonthlySpend":"lots"}'),
      text('```json\n{"customerName":"John Smith","averageMonthlySpend":46.83,"currency":"USD"}\n```'),
    );
    const answer = await new PromptRunner({ model }).withTools(counting).createObject(SpendAnswer, "q");
    expect(answer).toEqual(
      Object.assign(new SpendAnswer(), {
        customerName: "John Smith",
        averageMonthlySpend: 46.83,
        currency: "USD",
      }),
    );
    expect(searches).toBe(1);
    const repair = model.doGenerateCalls[2]!.prompt.at(-1);
    expect(repair).toMatchObject({ role: "user" });
    expect(JSON.stringify(repair)).toContain('missing required field \\"currency\\"');
    expect(JSON.stringify(repair)).toContain('field \\"averageMonthlySpend\\" must be number');
  });

  it("output that never validates: OutputValidationError after the repairs allowed", async () => {
    const model = mockModel(text("no idea"), text("still prose"), text("{}"), text("unused"));
    const error = await new PromptRunner({ model }).createObject(SpendAnswer, "q").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OutputValidationError);
    expect((error as OutputValidationError).message).toMatch(
      /after 2 repair attempt\(s\): missing required field "averageMonthlySpend"; .*"customerName"$/,
    );
    expect(model.doGenerateCalls).toHaveLength(3);
    expect((error as OutputValidationError).conversationHistory).toHaveLength(6);
  });

  it("a per-tool timeout turns a hanging tool into an error result", async () => {
    const hang = defineTool({
      name: "hang",
      description: "Never returns",
      execute: () => new Promise(() => {}),
    });
    const model = mockModel(call("hang"), text("timed out"));
    const run = await new PromptRunner({ model }).withTools(hang).withToolTimeout(50).run("q");
    expect(errorsSeen(model, 1)).toEqual(['Tool "hang" did not finish within 50 ms']);
    expect(run.result).toBe("timed out");
  });

  it("an AbortSignal cancels a run mid-tool; the error keeps the conversation, the call answered as cancelled", async () => {
    const controller = new AbortController();
    let toolSignal: AbortSignal | undefined;
    const slow = defineTool({
      name: "slow",
      description: "Slow",
      execute: (_input, { signal }) => {
        toolSignal = signal;
        setTimeout(() => controller.abort(new Error("user pressed stop")), 10);
        return new Promise(() => {});
      },
    });
    const model = mockModel(call("slow"), text("never"));
    const error = await new PromptRunner({ model })
      .withTools(slow)
      .run("q", { signal: controller.signal })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ToolLoopAbortedError);
    expect((error as Error).message).toBe("The run was aborted: user pressed stop");
    expect(toolSignal?.aborted).toBe(true);
    const history = (error as ToolLoopAbortedError).conversationHistory;
    expect(history.map((m) => m.role)).toEqual(["user", "assistant", "tool"]);
    expect(JSON.stringify(history[2])).toContain("The run was cancelled before this tool finished");
    expect(offeredAt(model, 0)).toEqual(["slow"]);
  });
});
