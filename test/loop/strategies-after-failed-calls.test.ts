// Strategies run after every call of an offered tool that ends with a result the model reads (API.md,
// "Strategies"), a failed one included: `isError`, the error text as `result`, no `resultObject`. Not
// after a call of a name that is no tool. What a strategy adds to a failed call's result reaches the model.
import "../fixtures/store/register.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { describe, expect, it } from "vitest";
import {
  defineTool,
  LlmTool,
  StrategyError,
  ToolProvider,
  type LastToolCall,
  type ToolInjectionStrategy,
  type ToolLoopEvent,
} from "entity-tools";
import { createMcpServer } from "entity-tools/mcp";
import { FakePromptRunner } from "entity-tools/testing";
import { CustomerSearchTools } from "../fixtures/store/customer-search-tools.js";
import { supportPrompt } from "../fixtures/store/support-prompt.js";

/** A tool of one number parameter `n`. */
const tool = (name: string, execute: (input: { n: number }) => unknown, needsApproval = false) =>
  defineTool<{ n: number }>({
    name,
    description: name,
    inputSchema: {
      type: "object",
      properties: { n: { type: "number" } },
      required: ["n"],
      additionalProperties: false,
    },
    execute,
    needsApproval,
  });

const ok = tool("ok", ({ n }) => ({ doubled: n * 2 }));
const boom = tool("boom", () => {
  throw new Error("out of stock");
});
const stuck = tool("stuck", () => new Promise(() => {}));

/** A strategy that records every call it is asked about. */
function counting(): { seen: LastToolCall[]; strategy: ToolInjectionStrategy } {
  const seen: LastToolCall[] = [];
  return { seen, strategy: { evaluateToolResult: ({ lastToolCall }) => (seen.push(lastToolCall), {}) } };
}

describe("strategies after failed calls", () => {
  it("a counting strategy sees a call that threw, had invalid input or timed out, not an unknown name", async () => {
    const fake = new FakePromptRunner();
    const { seen, strategy } = counting();
    const runner = fake.withTools(ok, boom, stuck).withToolTimeout(1).withInjectionStrategy(strategy);
    fake
      .callTool("boom", { n: 1 })
      .callTool("boom", { n: "one" })
      .callTool("stuck", { n: 1 })
      .callUnknownTool("nope", { n: 1 })
      .callTool("ok", { n: 2 })
      .respondWithText("done");
    const run = await runner.run("q");
    expect(run.result).toBe("done");
    expect(seen).toEqual([
      {
        toolName: "boom",
        toolInput: { n: 1 },
        result: 'Tool "boom" failed: out of stock',
        resultObject: undefined,
        isError: true,
      },
      {
        toolName: "boom",
        toolInput: { n: "one" }, // as the model gave it
        result: expect.stringMatching(/^Invalid arguments for "boom": /) as string,
        resultObject: undefined,
        isError: true,
      },
      {
        toolName: "stuck",
        toolInput: { n: 1 },
        result: 'Tool "stuck" did not finish within 1 ms',
        resultObject: undefined,
        isError: true,
      },
      {
        toolName: "ok",
        toolInput: { n: 2 },
        result: '{"doubled":4}',
        resultObject: { doubled: 4 },
        isError: false,
      },
    ]);
    fake.verifyExpectations();
  });

  it("a strategy's notice after a failed call is appended to the error text the model and observers read", async () => {
    const fake = new FakePromptRunner();
    const events: ToolLoopEvent[] = [];
    const runner = fake
      .withTools(boom)
      .withObserver((e) => events.push(e))
      .withInjectionStrategy({
        evaluateToolResult: ({ lastToolCall }) =>
          lastToolCall.isError ? { notices: ["Try again later."] } : {},
      });
    fake.callTool("boom", { n: 1 }).respondWithText("done");
    await runner.run("q");
    const read = 'Tool "boom" failed: out of stock\n\n[Try again later.]';
    expect(fake.callsAt(1)).toMatchObject([{ toolName: "boom", resultText: read, isError: true }]);
    expect(events.find((e) => e.type === "ToolFailed")).toMatchObject({ reason: "threw", message: read });
  });

  it("a strategy that throws after a failed call fails the run with StrategyError, as after a result", async () => {
    const fake = new FakePromptRunner();
    const runner = fake.withTools(boom).withInjectionStrategy({
      evaluateToolResult: () => {
        throw new Error("strategy bug");
      },
    });
    fake.callTool("boom", { n: 1 }).respondWithText("never");
    const error = await runner.run("q").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StrategyError);
    expect((error as StrategyError).cause).toMatchObject({ message: "strategy bug" });
  });

  it("a call a person denied is seen, with the error text the model reads", async () => {
    const fake = new FakePromptRunner();
    const { seen, strategy } = counting();
    const runner = fake
      .withTools(tool("refund", ({ n }) => `refunded ${n}`, true))
      .withInjectionStrategy(strategy);
    fake.callTool("refund", { n: 40 }).respondWithText("not refunded");
    const paused = await runner.run("q");
    expect(seen).toEqual([]);
    await runner.resume(paused.snapshot, {
      approvals: { [paused.pendingApprovals[0]!.approvalId]: { approved: false, reason: "over the limit" } },
    });
    expect(seen).toEqual([
      {
        toolName: "refund",
        toolInput: { n: 40 },
        result: "Not run: a person denied this call: over the limit.",
        resultObject: undefined,
        isError: true,
      },
    ]);
  });

  it("discovery binds nothing from a failed call, even one whose unreadable value is a provider", async () => {
    @ToolProvider({ prefix: "crate" })
    class Crate {
      readonly id = "c1";
      constructor() {
        Object.defineProperty(this, "label", {
          enumerable: true,
          get: () => {
            throw new Error("label unreadable");
          },
        });
      }
      @LlmTool("Open the crate")
      open(): string {
        return "opened";
      }
    }
    const fake = new FakePromptRunner();
    const runner = fake.withTools(tool("crate", () => new Crate())).withToolProviderDiscovery();
    fake.callTool("crate", { n: 1 }).respondWithText("done");
    const run = await runner.run("q");
    expect(fake.callsAt(1)).toMatchObject([
      {
        resultText: expect.stringMatching(
          /^The result of "crate" could not be read: .*label unreadable$/,
        ) as string,
        isError: true,
      },
    ]);
    expect(run.injectedTools).toEqual([]);
    expect(fake.toolsOfferedAt(2)).toEqual(["crate"]);
  });

  it("read_section with input it refuses expands nothing, and the run goes on", async () => {
    const fake = new FakePromptRunner();
    const runner = fake
      .withTools(new CustomerSearchTools())
      .withSystemPrompt(supportPrompt(), { company: "Acme" });
    fake.callTool("read_section", "null").respondWithText("done");
    const run = await runner.run("q");
    expect(run.result).toBe("done");
    expect(fake.callsAt(1)).toMatchObject([{ toolName: "read_section", isError: true }]);
    expect(run.visibility).toEqual({});
  });

  it("on the MCP server too: a call that threw is seen, and the client reads the error", async () => {
    const { seen, strategy } = counting();
    const server = createMcpServer({
      name: "s",
      version: "1.0.0",
      tools: [boom],
      injectionStrategies: [strategy],
    });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: "test", version: "1.0.0" });
    await client.connect(clientSide);
    const result = await client.callTool({ name: "boom", arguments: { n: 1 } });
    expect(result).toMatchObject({ isError: true, content: [{ text: 'Tool "boom" failed: out of stock' }] });
    expect(seen).toMatchObject([
      { toolName: "boom", result: 'Tool "boom" failed: out of stock', isError: true },
    ]);
    await client.close();
  });
});

describe("what a strategy's lastToolCall.result holds", () => {
  it("the tool's own text: not the notices earlier strategies appended, which the model reads", async () => {
    const fake = new FakePromptRunner();
    const { seen, strategy } = counting();
    const runner = fake
      .withTools(new CustomerSearchTools())
      .withToolProviderDiscovery({ binding: "handles" })
      .withInjectionStrategy(strategy);
    fake.callTool("searchCustomer", { name: "John Smith" }).respondWithText("done");
    await runner.run("q");
    const read = fake.callsAt(1)[0]!.resultText;
    expect(read).toMatch(/\n\n\[Customer handle \["Customer:/);
    expect(read.startsWith(`${seen[0]!.result}\n\n[`)).toBe(true);
    expect(seen[0]!.result).not.toContain("handle");
    expect(JSON.parse(seen[0]!.result)).toMatchObject({ name: "John Smith" });
  });
});
