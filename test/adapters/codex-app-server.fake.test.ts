// Tier 1: the client against a fake app-server script: handshake, tool round trip, errors, timeouts, death.
import "../fixtures/store/register.js";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { readUIMessageStream, type UIMessage } from "ai";
import { describe, expect, it } from "vitest";
import {
  defineTool,
  ModelCallError,
  PromptRunner,
  ToolLoopAbortedError,
  ToolLoopError,
  ToolNotFoundError,
  type LastToolCall,
  type ToolLoopEvent,
} from "entity-tools";
import { CodexAppServerAdapter, CodexAppServerError, type CodexAppServerOptions } from "entity-tools/codex";
import { CustomerSearchTools } from "../fixtures/store/customer-search-tools.js";
import { memoryTracer, spanTree } from "../support/span-tree.js";
import { ONE_CALL_THEN_ANSWER, readStream } from "../support/streamed-run.js";
import { tempDir } from "../support/temp-dir.js";

const FAKE = path.resolve("test/support/fake-app-server.mjs");

function fakeRunner(script: object, options: Partial<CodexAppServerOptions> = {}) {
  const adapter = new CodexAppServerAdapter({
    command: process.execPath,
    args: [FAKE],
    env: { FAKE_APP_SERVER: JSON.stringify(script) },
    // Upper bounds only (a loaded machine starts a node child slowly): no test here waits for them to
    // pass except the one about timeouts, which sets its own.
    requestTimeoutMs: 20_000,
    turnTimeoutMs: 25_000,
    ...options,
  });
  return new PromptRunner({ adapter }).withTools(new CustomerSearchTools());
}

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (e: unknown) => e as ToolLoopError,
  );

describe("CodexAppServerAdapter against a fake app-server", () => {
  it("handshake, thread/start with dynamicTools, and a tool call round trip through the executor", async () => {
    const run = await fakeRunner({
      toolCalls: [{ tool: "searchCustomer", arguments: { name: "Jane Smith" } }],
      answer: "found",
    }).run("Find Jane");
    expect(run.result).toBe(
      'found [{"contentItems":[{"type":"inputText","text":"{\\"id\\":\\"c456\\",\\"name\\":\\"Jane Smith\\",\\"email\\":\\"jane@example.com\\"}"}],"success":true}]',
    );
    expect(run.conversationHistory.map((m) => m.role)).toEqual(["user", "assistant", "tool", "assistant"]);
    expect(run.counters).toMatchObject({ toolCalls: 1, toolFailures: 0 });
  });

  it("streamed: each call comes before its result, and the final text as one part; useChat's reader shows both", async () => {
    const script = {
      toolCalls: [{ tool: "searchCustomer", arguments: { name: "Jane Smith" } }],
      answer: "found",
    };
    const { parts, run } = await readStream(fakeRunner(script).stream("Find Jane"));
    expect(parts.map((p) => p.type)).toEqual(ONE_CALL_THEN_ANSWER);
    expect(parts[0]).toEqual({
      type: "tool-call",
      toolCallId: "call-0",
      toolName: "searchCustomer",
      input: { name: "Jane Smith" },
    });
    expect(parts[3]).toEqual({ type: "text-delta", text: run.result });
    let message: UIMessage | undefined;
    for await (const m of readUIMessageStream({
      stream: fakeRunner(script).stream("Find Jane").toUIMessageStream(),
    }))
      message = m;
    expect(
      message!.parts.flatMap((p) => (p.type === "dynamic-tool" ? [[p.toolName, p.state, p.input]] : [])),
    ).toEqual([["searchCustomer", "output-available", { name: "Jane Smith" }]]);
    expect(message!.parts.flatMap((p) => (p.type === "text" ? [p.text] : []))).toEqual([run.result]);
  });

  it("invalid arguments and unknown tools go back as unsuccessful results; strategies see the invalid call", async () => {
    const seen: LastToolCall[] = [];
    const run = await fakeRunner({
      toolCalls: [
        { tool: "searchCustomer", arguments: { name: 7 } },
        { tool: "nope", arguments: {} },
        // Not in dispatch mode: no dispatcher is offered, so none reaches the tool it names.
        {
          tool: "call_discovered_tool",
          arguments: { tool_name: "searchCustomer", arguments: { name: "x" } },
        },
      ],
    })
      .withInjectionStrategy({ evaluateToolResult: ({ lastToolCall }) => (seen.push(lastToolCall), {}) })
      .run("q");
    // A call of an offered tool is judged whatever its end; a name that is no tool reaches no strategy.
    expect(seen).toEqual([
      {
        toolName: "searchCustomer",
        toolInput: { name: 7 },
        result: 'Invalid arguments for "searchCustomer": field "name" must be string.',
        resultObject: undefined,
        isError: true,
      },
    ]);
    expect(run.result).toContain('"success":false');
    expect(run.result).toContain(
      'Invalid arguments for \\"searchCustomer\\": field \\"name\\" must be string.',
    );
    expect(run.result).toContain('Unknown tool \\"nope\\"');
    expect(run.result).toContain('Unknown tool \\"call_discovered_tool\\"');
  });

  it("dispatch mode: a call_discovered_tool call with bad arguments is told what is wrong with them, as on the MCP server", async () => {
    const events: ToolLoopEvent[] = [];
    const run = await fakeRunner(
      {
        toolCalls: [
          { tool: "call_discovered_tool", arguments: { arguments: {} } },
          { tool: "call_discovered_tool", arguments: { tool_name: "findCustomers", arguments: "Khan" } },
          { tool: "call_discovered_tool", arguments: { tool_name: "call_discovered_tool" } },
          {
            tool: "call_discovered_tool",
            arguments: { tool_name: "findCustomers", arguments: { text: "Khan" } },
          },
        ],
      },
      { newTools: "dispatch" },
    )
      .withObserver((e) => events.push(e))
      .run("q");
    const outputs = JSON.parse(run.result!.slice("done ".length)) as {
      contentItems: { text: string }[];
      success: boolean;
    }[];
    expect(outputs.map((o) => [o.success, o.contentItems[0]!.text])).toEqual([
      [false, 'Invalid arguments for "call_discovered_tool": missing required field "tool_name".'],
      [false, 'Invalid arguments for "call_discovered_tool": field "arguments" must be object.'],
      [
        false,
        'Invalid arguments for "call_discovered_tool": "tool_name" names a discovered tool, not call_discovered_tool itself.',
      ],
      [true, expect.stringContaining("Khan")],
    ]);
    // The history holds the calls as the model made them, each with its error result.
    const tools = run.conversationHistory.filter((m) => m.role === "tool").map((m) => m.content[0]);
    expect(tools.slice(0, 3).map((p) => p && "toolName" in p && p.toolName)).toEqual([
      "call_discovered_tool",
      "call_discovered_tool",
      "call_discovered_tool",
    ]);
    // Each starts and fails for observers, as a call whose input its tool's schema refuses.
    const first = events.filter((e) => "toolCallId" in e && e.toolCallId === "call-0");
    expect(first.map((e) => [e.type, "reason" in e ? e.reason : undefined])).toEqual([
      ["ToolCallStarted", undefined],
      ["ToolFailed", "invalid-input"],
    ]);
    expect(run.counters).toMatchObject({ toolCalls: 4, toolFailures: 3 });
  });

  it("a JSON-RPC error is a ModelCallError carrying the conversation", async () => {
    const error = await failure(fakeRunner({ mode: "error-on-thread-start" }).run("q"));
    expect(error).toBeInstanceOf(ModelCallError);
    expect(error?.message).toBe("The model call failed: JSON-RPC error -32602: invalid dynamicTools");
    expect(error?.cause).toBeInstanceOf(CodexAppServerError);
    expect(error?.conversationHistory).toEqual([{ role: "user", content: "q" }]);
  });

  it("every wait has a timeout", async () => {
    // The fake never answers thread/start: whichever request is still waiting after 300 ms (initialize,
    // when the machine is slow to start the child) ends the run, so the outcome does not depend on speed.
    const error = await failure(fakeRunner({ mode: "silent" }, { requestTimeoutMs: 300 }).run("q"));
    expect(error?.message).toMatch(
      /^The model call failed: codex app-server did not answer (initialize|thread\/start) within 300 ms$/,
    );
    const turn = await failure(fakeRunner({ mode: "hang-turn" }, { turnTimeoutMs: 300 }).run("q"));
    expect(turn?.message).toBe("The model call failed: the Codex turn did not complete within 300 ms");
  });

  it("a server that dies mid-turn: the error says so, with its stderr, and keeps what happened", async () => {
    const error = await failure(
      fakeRunner({
        mode: "die-on-turn",
        toolCalls: [{ tool: "findCustomers", arguments: { text: "x" } }],
      }).run("q"),
    );
    expect(error?.message).toBe("The model call failed: codex app-server exited (code 3)");
    expect((error?.cause as CodexAppServerError).stderrTail).toContain("fake app-server got turn/start");
  });

  it("a failed turn is reported with its reason", async () => {
    const error = await failure(fakeRunner({ mode: "turn-failed" }).run("q"));
    expect(error?.message).toBe("The model call failed: the Codex turn failed: model provider returned 500");
  });

  it("an abort stops the turn and the child process", async () => {
    const pidFile = path.join(tempDir("fake-"), "pid");
    const controller = new AbortController();
    const slow = defineTool({
      name: "slow",
      description: "Slow",
      execute: () => (setTimeout(() => controller.abort(new Error("stop")), 20), new Promise(() => {})),
    });
    const adapter = new CodexAppServerAdapter({
      command: process.execPath,
      args: [FAKE],
      env: { FAKE_APP_SERVER: JSON.stringify({ toolCalls: [{ tool: "slow" }], pidFile }) },
    });
    const error = await failure(
      new PromptRunner({ adapter }).withTools(slow).run("q", { signal: controller.signal }),
    );
    expect(error).toBeInstanceOf(ToolLoopAbortedError);
    expect(error?.message).toBe("The run was aborted: stop");
    // The interrupted call is answered, so the history stays well-formed.
    expect(error?.conversationHistory.at(-1)).toEqual({
      role: "tool",
      content: [
        {
          type: "tool-result",
          toolCallId: "call-0",
          toolName: "slow",
          output: { type: "error-text", value: "The run was cancelled before this tool finished" },
        },
      ],
    });
    const pid = Number(readFileSync(pidFile, "utf8"));
    expect(() => process.kill(pid, 0)).toThrow(/ESRCH/); // the child is gone
  });

  it("a process that cannot start is a clear error", async () => {
    const adapter = new CodexAppServerAdapter({ command: "/nonexistent/codex", requestTimeoutMs: 1_000 });
    const error = await failure(new PromptRunner({ adapter }).run("q"));
    expect(error?.message).toBe(
      "The model call failed: cannot run codex app-server: spawn /nonexistent/codex ENOENT",
    );
    expect(error).toBeInstanceOf(ModelCallError);
    expect(error?.cause).toBeInstanceOf(CodexAppServerError);
  });

  it("env: a variable given as undefined keeps this process's value, as leaving it out does (and as on Claude)", async () => {
    // `{ OPENAI_API_KEY: process.env.OPENAI_API_KEY }`: the child started without the variable.
    process.env.FAKE_APP_SERVER = JSON.stringify({ answer: "the script this process holds" });
    try {
      const run = await fakeRunner({}, { env: { FAKE_APP_SERVER: undefined } }).run("q");
      expect(run.result).toMatch(/^the script this process holds/);
    } finally {
      delete process.env.FAKE_APP_SERVER;
    }
  });

  it("the unknown-tool limit ends a Codex run too, with every call answered", async () => {
    const error = await failure(
      fakeRunner({
        toolCalls: [{ tool: "nope1" }, { tool: "nope2" }, { tool: "nope3" }, { tool: "nope4" }],
      }).run("q"),
    );
    expect(error).toBeInstanceOf(ToolNotFoundError);
    expect((error as ToolNotFoundError).requestedTool).toBe("nope3");
    const results = error!.conversationHistory.filter((m) => m.role === "tool");
    expect(results).toHaveLength(3);
    expect(results.every((m) => m.content.length === 1)).toBe(true);
  });

  it("a strategy that fails mid-call ends the run with the call and its result in the history", async () => {
    const error = await failure(
      fakeRunner({ toolCalls: [{ tool: "searchCustomer", arguments: { name: "Jane Smith" } }] })
        .withInjectionStrategy({
          evaluateToolResult: () => {
            throw new Error("strategy bug");
          },
        })
        .run("q"),
    );
    expect(error?.message).toBe('An injection strategy failed after "searchCustomer": strategy bug');
    expect(error?.conversationHistory.map((m) => m.role)).toEqual(["user", "assistant", "tool"]);
    const last = error!.conversationHistory.at(-1) as { content: { output: unknown }[] };
    expect(last.content).toHaveLength(1);
    // It ran (the strategy failed after it): never "Not run", which invites the model to make it again.
    expect(last.content[0]!.output).toEqual({
      type: "error-text",
      value: "Not finished: the run ended after this call started. It may have run; its result was not kept.",
    });
  });

  it("iterations mean the same as on the AI SDK: each tool call and the final message; counters agree", async () => {
    const run = await fakeRunner({
      toolCalls: [
        { tool: "searchCustomer", arguments: { name: "Jane Smith" } },
        { tool: "findCustomers", arguments: { text: "Smith" } },
      ],
    }).run("q");
    expect(run.totalIterations).toBe(3);
    expect(run.counters.modelCalls).toBe(3);
  });

  it("withTelemetry: a Codex run gives the AI SDK's span shape (a run span, a chat span per iteration, a tool span per call)", async () => {
    const { tracer, spans } = memoryTracer();
    await fakeRunner({ toolCalls: [{ tool: "searchCustomer", arguments: { name: "John Smith" } }] })
      .withToolProviderDiscovery()
      .withTelemetry({ tracer })
      .run("q");
    expect(spanTree(spans())).toEqual([
      "entity_tools.run",
      "  · tools.restart customer_c123_getAverageSpend,customer_c123_recentOrders by new-thread",
      "  chat",
      "  execute_tool searchCustomer",
      "    · tools.injected customer_c123_getAverageSpend,customer_c123_recentOrders by searchCustomer from Customer:c123",
      // The new tools restart the thread (the default newTools mode); the fake replays its script there.
      "  chat",
      "  execute_tool searchCustomer",
      "  chat",
    ]);
  });

  it("reports the tokens Codex counted for the run's turns as ToolLoopResult.usage", async () => {
    const done = await fakeRunner({ usage: { inputTokens: 120, outputTokens: 9 } }).run("q");
    expect(done.usage).toEqual({
      inputTokens: 120,
      outputTokens: 9,
      cachedInputTokens: 0,
      reasoningTokens: 0,
    });
  });

  it("withPricing: a turn's tokens are priced on the step that ends it, as the model thread/start names; usage unchanged", async () => {
    const dir = tempDir("codex-cost-");
    const done = await fakeRunner({
      model: "gpt-5-codex",
      toolCalls: [{ tool: "searchCustomer", arguments: { name: "Jane Smith" } }],
      usage: { inputTokens: 1000, outputTokens: 100 },
    })
      .withPricing((modelId) =>
        modelId === "gpt-5-codex" ? { input: 2, output: 10 } : { input: 0, output: 0 },
      )
      .withRunLog(dir)
      .run("q");
    const usage = { inputTokens: 1000, outputTokens: 100, cachedInputTokens: 0, reasoningTokens: 0 };
    expect(done.usage).toEqual(usage);
    const cost = (1000 * 2 + 100 * 10) / 1e6;
    // Step 1 is the tool call (its turn had not ended yet), step 2 the final message that ends the turn.
    expect(done.cost?.perStep).toEqual([
      { iteration: 1, usage: { ...usage, inputTokens: 0, outputTokens: 0 }, cost: 0 },
      { iteration: 2, modelId: "gpt-5-codex", usage, cost },
    ]);
    expect(done.cost?.total).toBeCloseTo(cost, 12);
    const [file] = readdirSync(dir).filter((f) => f.endsWith(".jsonl"));
    const records = readFileSync(path.join(dir, file!), "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { type: string; step?: number });
    expect(records.filter((r) => r.type === "response" && r.step === 2)).toEqual([
      expect.objectContaining({ modelId: "gpt-5-codex", usage, cost }),
    ]);
    expect(records.find((r) => r.type === "end")).toMatchObject({ usage, cost });
  });

  it("approvals on Codex: the run pauses before the call, and resume runs it once, then continues in a new thread", async () => {
    let refunds = 0;
    const refund = defineTool({
      name: "refund",
      description: "Refund",
      needsApproval: true,
      execute: () => `refund #${++refunds}`,
    });
    const paused = await fakeRunner({ toolCalls: [{ tool: "refund" }] })
      .withTools(refund)
      .run("Refund it");
    expect(paused.status).toBe("awaiting-approval");
    expect(paused.pendingApprovals).toEqual([{ approvalId: "call-0", toolName: "refund", input: {} }]);
    expect(refunds).toBe(0);
    const resumed = await fakeRunner({ answer: "refunded" })
      .withTools(refund)
      .resume(JSON.parse(JSON.stringify(paused.snapshot)), { approvals: { "call-0": { approved: true } } });
    expect(resumed.status).toBe("completed");
    expect(resumed.result).toBe("refunded []");
    expect(refunds).toBe(1);
    const results = resumed.conversationHistory.filter((m) => m.role === "tool");
    expect(JSON.stringify(results)).toContain("refund #1");
  });

  it("approvals on Codex come after validation: a needsApproval call with invalid input is an unsuccessful result, nobody is asked", async () => {
    let refunds = 0;
    const refund = defineTool<{ amount: number }>({
      name: "refund",
      description: "Refund",
      inputSchema: { type: "object", properties: { amount: { type: "number" } }, required: ["amount"] },
      needsApproval: true,
      execute: () => `refund #${++refunds}`,
    });
    const run = await fakeRunner({ toolCalls: [{ tool: "refund", arguments: { amount: "everything" } }] })
      .withTools(refund)
      .run("Refund it");
    expect([run.status, run.pendingApprovals, refunds]).toEqual(["completed", [], 0]);
    expect(run.result).toContain('Invalid arguments for \\"refund\\": field \\"amount\\" must be number.');
    expect(run.result).toContain('"success":false');
  });
});
