// scoreToolUse tells apart what only entity-tools knows: a discovered tool that was never offered (the
// budget or the discovery), one offered and not chosen, one called on the wrong entity, one called as
// expected; per-instance, handles and deferred delivery; from a RunRecorder's steps and from a result.
import "../../examples/register-schemas.js";
import { createOpenAI } from "@ai-sdk/openai";
import { describe, expect, it } from "vitest";
import { readdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { EntityHandleCodec, EntityToolsError, PromptRunner, readRunLog } from "entity-tools";
import {
  FakePromptRunner,
  RunRecorder,
  ToolUseExpectationError,
  expectToolUse,
  formatToolUseScore,
  formatToolUseSummary,
  scoreToolUse,
  startOpenAiResponsesMock,
  toolUseMatchers,
  type MockReply,
  type ResponsesRequest,
} from "entity-tools/testing";
import { Customer } from "../../examples/domain/customer.js";
import { CustomerSearchTools } from "../../examples/domain/customer-search-tools.js";
import { tempDir } from "../support/temp-dir.js";

const KEY = "handle-key-for-scoring-tests-0123";
const handleOf = (id: string) =>
  new EntityHandleCodec(KEY).mint({ providerClass: "Customer", id, idType: "string" });
const c123 = { providerClass: "Customer", id: "c123" };
const spend = { tool: /getAverageSpend$/, provider: c123 };

function perInstance(options: { maxInjectedTools?: number } = {}) {
  const fake = new FakePromptRunner();
  return { fake, runner: fake.withTools(new CustomerSearchTools()).withToolProviderDiscovery(options) };
}

function handles() {
  const fake = new FakePromptRunner();
  const runner = fake
    .withTools(new CustomerSearchTools())
    .withToolProviderDiscovery({ binding: "handles", classes: [Customer], handleKey: KEY });
  return { fake, runner };
}

/** The text of the one run log file a run wrote in `dir`. */
const onlyLogText = (dir: string) =>
  readFileSync(
    path.join(
      dir,
      readdirSync(dir).find((f) => f.endsWith(".jsonl"))!,
    ),
    "utf8",
  );

const verdicts = (score: ReturnType<typeof scoreToolUse>) =>
  score.verdicts.map((v) => [v.label, v.verdict, v.step]);

describe("scoreToolUse, per-instance names", () => {
  it("called as expected: each expected call with its step, score 1", async () => {
    const { fake, runner } = perInstance();
    fake
      .callTool("searchCustomer", { name: "John Smith" })
      .callTool("customer_c123_getAverageSpend")
      .respondWithText("46.83");
    const run = await runner.run("?");
    const expected = ["searchCustomer", "customer_c123_getAverageSpend"];
    for (const source of [fake, fake.steps, run]) {
      const score = scoreToolUse(source, expected);
      expect(verdicts(score)).toEqual([
        ["searchCustomer", "called", 1],
        ["customer_c123_getAverageSpend", "called", 2],
      ]);
      expect(score).toMatchObject({ score: 1, passed: true, otherCalls: [] });
    }
    expect(scoreToolUse(fake, expected).verdicts[1]!.call).toMatchObject({
      provider: { providerClass: "Customer", id: "c123" },
    });
  });

  it("never offered: the budget left the discovered customer without tools (a discovery or budget problem)", async () => {
    const { fake, runner } = perInstance({ maxInjectedTools: 1 });
    fake.callTool("findCustomers", { text: "Smith" }).respondWithText("I cannot tell.");
    const run = await runner.run("?");
    expect(fake.toolsOfferedAt(2)).toEqual([
      "searchCustomer",
      "findCustomers",
      "customer_c123_getAverageSpend",
    ]);
    const expected = ["findCustomers", "customer_c456_getAverageSpend", "customer_c123_getAverageSpend"];
    expect(verdicts(scoreToolUse(fake, expected))).toEqual([
      ["findCustomers", "called", 1],
      ["customer_c456_getAverageSpend", "not-offered", 1],
      ["customer_c123_getAverageSpend", "offered-not-chosen", 2],
    ]);
    // A result knows what the run offered as a whole, not at which step.
    expect(verdicts(scoreToolUse(run, expected))).toEqual([
      ["findCustomers", "called", 1],
      ["customer_c456_getAverageSpend", "not-offered", undefined],
      ["customer_c123_getAverageSpend", "offered-not-chosen", undefined],
    ]);
    expect(scoreToolUse(fake, expected).score).toBeCloseTo(1 / 3);
  });

  it("offered, not chosen: the tool was there from step 2, the model answered instead", async () => {
    const { fake, runner } = perInstance();
    fake.callTool("searchCustomer", { name: "John Smith" }).respondWithText("About 40 USD.");
    await runner.run("?");
    const score = scoreToolUse(fake, ["searchCustomer", /^customer_.+_getAverageSpend$/]);
    expect(score.verdicts[1]).toMatchObject({ verdict: "offered-not-chosen", step: 2, offeredAt: [2] });
    expect(score.score).toBe(0.5);
  });

  it("called on another entity: the right method of the wrong customer", async () => {
    const { fake, runner } = perInstance();
    fake
      .callTool("findCustomers", { text: "Smith" })
      .callTool("customer_c456_getAverageSpend")
      .respondWithText("?");
    const run = await runner.run("?");
    for (const expected of ["customer_c123_getAverageSpend", spend]) {
      for (const source of [fake, run]) {
        const [verdict] = scoreToolUse(source, [expected]).verdicts;
        expect(verdict).toMatchObject({
          verdict: "called-on-another-entity",
          step: 2,
          call: {
            toolName: "customer_c456_getAverageSpend",
            provider: { providerClass: "Customer", id: "c456" },
          },
        });
      }
    }
    // A pattern that any customer's tool matches was called.
    expect(scoreToolUse(fake, [/getAverageSpend$/]).passed).toBe(true);
  });
});

describe("scoreToolUse, handles (stable tool names; the entity is in the handle)", () => {
  it("called as expected: the handle names the expected customer", async () => {
    const { fake, runner } = handles();
    fake
      .callTool("searchCustomer", { name: "John Smith" })
      .callTool("customer_getAverageSpend", { handle: handleOf("c123") })
      .respondWithText("ok");
    const run = await runner.run("?");
    for (const source of [fake, run])
      expect(verdicts(scoreToolUse(source, ["searchCustomer", spend]))).toEqual([
        ["searchCustomer", "called", 1],
        ["/getAverageSpend$/ on Customer c123", "called", 2],
      ]);
  });

  it("not offered: the tool was listed from step 1, but the customer's handle never reached the model", async () => {
    const { fake, runner } = handles();
    fake.callTool("searchCustomer", { name: "Nobody" }).respondWithText("No such customer.");
    await runner.run("?");
    expect(fake.toolsOfferedAt(1)).toContain("customer_getAverageSpend");
    expect(scoreToolUse(fake, ["searchCustomer", spend]).verdicts[1]).toMatchObject({
      verdict: "not-offered",
      step: 1,
    });
    // Without an entity, the stable tool was offered all along.
    expect(scoreToolUse(fake, [/getAverageSpend$/]).verdicts[0]).toMatchObject({
      verdict: "offered-not-chosen",
      step: 1,
    });
  });

  it("offered, not chosen: the handle was read at step 1, so the call was possible from step 2", async () => {
    const { fake, runner } = handles();
    fake.callTool("searchCustomer", { name: "John Smith" }).respondWithText("About 40 USD.");
    await runner.run("?");
    expect(scoreToolUse(fake, ["searchCustomer", spend]).verdicts[1]).toMatchObject({
      verdict: "offered-not-chosen",
      step: 2,
    });
  });

  it("called on another entity: the handle of the wrong customer", async () => {
    const { fake, runner } = handles();
    fake
      .callTool("findCustomers", { text: "Smith" })
      .callTool("customer_getAverageSpend", { handle: handleOf("c456") })
      .respondWithText("?");
    const run = await runner.run("?");
    for (const source of [fake, run])
      expect(scoreToolUse(source, [spend]).verdicts[0]).toMatchObject({
        verdict: "called-on-another-entity",
        step: 2,
        call: { toolName: "customer_getAverageSpend", provider: { providerClass: "Customer", id: "c456" } },
      });
  });
});

describe("scoreToolUse and RunRecorder, a handle the runner refused or took", () => {
  /** A run of `calls` after the search that gives c123's handle, logged; each source of it. */
  async function sources(...calls: [string, object][]) {
    const { fake, runner } = handles();
    const logs = tempDir("score-forged-");
    fake.callTool("searchCustomer", { name: "John Smith" });
    for (const [tool, input] of calls) fake.callTool(tool, input);
    fake.respondWithText("?");
    const run = await runner.withRunLog(logs).run("?");
    const log = readRunLog(onlyLogText(logs));
    rmSync(logs, { recursive: true, force: true });
    return { fake, all: [fake, run, log] as const };
  }

  it("a forged handle of the expected customer (its signature changed) is credited to no provider", async () => {
    const forged = `${handleOf("c123").slice(0, -4)}AAAA`;
    const { fake, all } = await sources(["customer_getAverageSpend", { handle: forged }]);
    expect(fake.callsAt(2)[0]).toMatchObject({ toolName: "customer_getAverageSpend", isError: true });
    expect(fake.callsAt(2)[0]!.provider).toBeUndefined();
    for (const source of all) {
      const [verdict] = scoreToolUse(source, [spend]).verdicts;
      expect(verdict!.verdict).toBe("offered-not-chosen");
    }
  });

  it("a valid handle whose call failed (invalid input) is still its provider's call", async () => {
    const { fake, all } = await sources([
      "customer_recentOrders",
      { handle: handleOf("c123"), limit: "ten" },
    ]);
    expect(fake.callsAt(2)[0]).toMatchObject({
      isError: true,
      provider: { providerClass: "Customer", id: "c123" },
    });
    for (const source of all)
      expect(scoreToolUse(source, [{ tool: /recentOrders$/, provider: c123 }]).verdicts[0]).toMatchObject({
        verdict: "called",
        call: { failed: true, provider: { providerClass: "Customer", id: "c123" } },
      });
  });
});

describe("scoreToolUse, deferred delivery through the real OpenAI Responses provider", () => {
  async function deferredRun(reply: (r: ResponsesRequest) => MockReply) {
    const mock = await startOpenAiResponsesMock(reply);
    try {
      const recorder = new RunRecorder();
      const model = createOpenAI({ baseURL: mock.baseURL, apiKey: "sk-test" }).responses("gpt-test");
      await new PromptRunner({ model, modelSettings: { maxRetries: 0 } })
        .withTools(new CustomerSearchTools())
        .withToolProviderDiscovery({ delivery: "deferred" })
        .withObserver(recorder.observe)
        .run("?");
      return recorder;
    } finally {
      await mock.close();
    }
  }
  const search: MockReply = { toolCalls: [{ name: "searchCustomer", input: { name: "John Smith" } }] };

  it("tools a tool search delivered count as offered: called, or offered and not chosen", async () => {
    const called = await deferredRun((r) =>
      r.calledTools.length === 0
        ? search
        : r.calledTools.length === 1
          ? { toolCalls: [{ name: "customer_c123_getAverageSpend", input: {} }] }
          : { text: "46.83" },
    );
    expect(verdicts(scoreToolUse(called, ["searchCustomer", spend]))).toEqual([
      ["searchCustomer", "called", 1],
      ["/getAverageSpend$/ on Customer c123", "called", 2],
    ]);
    const ignored = await deferredRun((r) => (r.calledTools.length === 0 ? search : { text: "About 40." }));
    expect(ignored.steps[1]!.toolsOffered).toContain("customer_c123_getAverageSpend");
    expect(scoreToolUse(ignored, ["searchCustomer", spend]).verdicts[1]).toMatchObject({
      verdict: "offered-not-chosen",
      step: 2,
    });
  });
});

describe("matching and summaries", () => {
  async function searchedThenListed() {
    const { fake, runner } = perInstance();
    fake
      .callTool("searchCustomer", { name: "John Smith" })
      .callTool("findCustomers", { text: "Khan" })
      .respondWithText("?");
    await runner.run("?");
    return fake;
  }

  it("in order, in any order, as a subset or exactly; input by fields or a test", async () => {
    const fake = await searchedThenListed();
    expect(scoreToolUse(fake, ["findCustomers", "searchCustomer"]).verdicts[1]).toMatchObject({
      verdict: "called-out-of-order",
      step: 1,
    });
    expect(scoreToolUse(fake, ["findCustomers", "searchCustomer"], { order: "any" }).passed).toBe(true);
    const exact = scoreToolUse(fake, ["searchCustomer"], { match: "exact" });
    expect(exact).toMatchObject({
      score: 0.5,
      passed: false,
      otherCalls: [{ toolName: "findCustomers", step: 2 }],
    });
    expect(scoreToolUse(fake, [{ tool: "searchCustomer", input: { name: "John Smith" } }]).passed).toBe(true);
    expect(scoreToolUse(fake, [{ tool: "searchCustomer", input: { name: "Jane" } }]).passed).toBe(false);
    expect(
      scoreToolUse(fake, [{ tool: /Customers$/, input: (i) => JSON.stringify(i).includes("Khan") }]).passed,
    ).toBe(true);
    expect(scoreToolUse(fake, []).score).toBe(1);
  });

  it("an input field holding an object matches it in whatever key order the model wrote", () => {
    // JSON objects have no order, and a model writes keys in any: `{ status, customer }` is the same filter
    // as `{ customer, status }`. A field is still compared whole (an object with fewer keys is another one).
    const run = {
      steps: [
        {
          step: 1,
          calls: [
            {
              step: 1,
              toolName: "findOrders",
              input: { filter: { status: "open", customer: { id: "c123", type: "b2b" } }, limit: 5 },
            },
          ],
        },
      ],
    };
    const expecting = (filter: unknown) =>
      scoreToolUse(run, [{ tool: "findOrders", input: { filter } }]).verdicts[0]!.verdict;
    expect(expecting({ customer: { type: "b2b", id: "c123" }, status: "open" })).toBe("called");
    expect(expecting({ customer: { id: "c123" }, status: "open" })).toBe("not-called");
    expect(expecting([{ status: "open" }])).toBe("not-called");
  });

  it("in order: calls the model made together, in one step, count in either order", async () => {
    // Parallel calls of one model message: their order in the message (a re-recording may list them the
    // other way) and the order they ended (which a slower tool changes) say nothing about the model's plan.
    const scored = async (first: string, second: string) => {
      const { fake, runner } = perInstance();
      fake
        .callTool("searchCustomer", { name: "John Smith" })
        .callTools([[first], [second]])
        .respondWithText("?");
      await runner.run("?");
      return scoreToolUse(fake, ["searchCustomer", /getAverageSpend$/, /recentOrders$/]);
    };
    for (const made of [
      await scored("customer_c123_getAverageSpend", "customer_c123_recentOrders"),
      await scored("customer_c123_recentOrders", "customer_c123_getAverageSpend"),
    ]) {
      expect(made.verdicts.map((v) => [v.verdict, v.step])).toEqual([
        ["called", 1],
        ["called", 2],
        ["called", 2],
      ]);
      expect(made).toMatchObject({ score: 1, passed: true, otherCalls: [] });
    }
    // A call of an earlier step than the one matched before it is still out of order.
    const fake = await searchedThenListed();
    expect(scoreToolUse(fake, ["findCustomers", "searchCustomer"]).verdicts[1]?.verdict).toBe(
      "called-out-of-order",
    );
  });

  it("a call waiting for a person is a call the model made: called, waiting, from every source", async () => {
    const { fake, runner } = perInstance();
    const logs = tempDir("score-waiting-");
    fake
      .callTool("searchCustomer", { name: "John Smith" })
      .callTools([["customer_c123_getAverageSpend"], ["customer_c123_recentOrders"]]);
    const paused = await runner
      .withApproval((call) => call.toolName.endsWith("_recentOrders"))
      .withRunLog(logs)
      .run("?");
    expect(paused.status).toBe("awaiting-approval");
    const log = onlyLogText(logs);
    const expected = ["searchCustomer", spend, { tool: /recentOrders$/, provider: c123 }];
    for (const source of [fake, paused, readRunLog(log)]) {
      const score = scoreToolUse(source, expected);
      expect(score.verdicts.map((v) => [v.verdict, v.step, v.call?.waiting])).toEqual([
        ["called", 1, undefined],
        ["called", 2, undefined],
        ["called", 2, true],
      ]);
      expect(score.passed).toBe(true);
      expect(formatToolUseScore(score)).toContain(
        "✓ /recentOrders$/ on Customer c123: called at step 2 (waiting for a person's decision)",
      );
    }
  });

  it("a run log that cut a call's input (maxValueChars) gives that call no input: its start and note are not one", async () => {
    const { fake, runner } = perInstance();
    const logs = tempDir("score-cut-");
    fake
      .callTool("searchCustomer", { name: "John Smith of the very long name" })
      .callTool("searchCustomer", { name: "Jo" })
      .respondWithText("?");
    await runner.withRunLog(logs, { maxValueChars: 20 }).run("?");
    const log = onlyLogText(logs);
    const seen: unknown[] = [];
    const looked = (input: unknown) => (seen.push(input), true);
    scoreToolUse(readRunLog(log), [
      { tool: "searchCustomer", input: looked },
      { tool: "searchCustomer", input: looked },
    ]);
    expect(seen).toEqual([undefined, { name: "Jo" }]);
  });

  it("a run log of a run paused and resumed: its files, given together, are scored as the one run", async () => {
    const { fake, runner } = perInstance();
    const logs = tempDir("score-resumed-");
    fake
      .callTool("searchCustomer", { name: "John Smith" })
      .callTools([["customer_c123_getAverageSpend"], ["customer_c123_recentOrders"]])
      .respondWithText("46.83 a month; orders o1, o2.")
      .respondWithText("Still 46.83.");
    const logged = runner.withApproval((call) => call.toolName.endsWith("_recentOrders")).withRunLog(logs);
    const paused = await logged.run("?");
    const done = await logged.resume(paused.snapshot!, {
      approvals: { [paused.pendingApprovals[0]!.approvalId]: { approved: true } },
      resolveProvider: (_, id) => new CustomerSearchTools().byId(String(id)),
    });
    await logged.run("And now?", { continueFrom: done.snapshot });
    const [first, resumed, next] = ["run", "resume", "continue"].map((kind) =>
      readdirSync(logs)
        .filter((f) => f.endsWith(".jsonl"))
        .map((f) => readRunLog(readFileSync(path.join(logs, f), "utf8")))
        .find((read) => read.header?.kind === kind),
    );
    const expected = ["searchCustomer", spend, { tool: /recentOrders$/, provider: c123 }];
    const whole = scoreToolUse([first!, resumed!], expected);
    expect(whole.verdicts.map((v) => [v.verdict, v.step, v.call?.waiting])).toEqual([
      ["called", 1, undefined],
      ["called", 2, undefined],
      ["called", 2, undefined], // decided at the resume, run then: a call of the step that made it
    ]);
    expect(whole).toMatchObject({ score: 1, passed: true, otherCalls: [] });
    // The resume's file alone is numbered by the run's steps too: its decided call is step 2's, its model call step 3.
    // (Alone, it does not know the providers of tools it re-bound from the snapshot: the paused file does.)
    const part = scoreToolUse(resumed!, [/recentOrders$/]);
    expect(part.verdicts.map((v) => [v.verdict, v.step])).toEqual([["called", 2]]);

    // Files that are not one run's, in order, would mix their steps: each must go on from the one before.
    const [runId, resumeId, nextId] = [first, resumed, next].map((read) => read!.header!.id);
    expect(() => scoreToolUse([resumed!, first!], expected)).toThrow(
      `scoreToolUse reads the run logs of one run paused and resumed, in order: the run log ${runId} ` +
        `(number 2 of 2) begins a run (it goes on from none), so it cannot follow the run ${resumeId}.`,
    );
    expect(() => scoreToolUse([first!, resumed!, next!], expected)).toThrow(
      `the run log ${nextId} (number 3 of 3) is a conversation's next turn (kind "continue"): a run of its ` +
        "own, whose steps count from 1 again; score it alone.",
    );
  });

  it("summarizes many runs, per expected call, and prints verdicts readably", async () => {
    const good = await searchedThenListed();
    const { fake: bad, runner } = perInstance();
    bad.respondWithText("I will not look.");
    await runner.run("?");
    const expected = ["searchCustomer", "customer_c123_getAverageSpend"];
    const summary = scoreToolUse.many([good, bad], expected);
    expect(summary).toMatchObject({ runs: 2, score: 0.25, passed: 0 });
    expect(summary.byExpected).toEqual([
      {
        label: "searchCustomer",
        verdicts: expect.objectContaining({ called: 1, "offered-not-chosen": 1 }) as unknown,
      },
      {
        label: "customer_c123_getAverageSpend",
        verdicts: expect.objectContaining({ "offered-not-chosen": 1, "not-offered": 1 }) as unknown,
      },
    ]);
    expect(scoreToolUse.many(summary.scores).score).toBe(0.25);
    expect(formatToolUseSummary(summary)).toBe(
      [
        "2 run(s), mean score 0.25, 0 with every expected call made",
        "  searchCustomer: called 1, offered-not-chosen 1",
        "  customer_c123_getAverageSpend: offered-not-chosen 1, not-offered 1",
      ].join("\n"),
    );
    expect(formatToolUseScore(scoreToolUse(bad, expected))).toBe(
      [
        "tool use: 0 of 2 expected call(s) made, score 0.00 (in order, other calls allowed)",
        "  ✗ searchCustomer: offered at step 1, not chosen: the model picked otherwise (description or model)",
        "  ✗ customer_c123_getAverageSpend: not offered from step 1 on: a discovery or budget problem",
      ].join("\n"),
    );
  });

  it("test helpers: expectToolUse throws the verdicts; vitest's expect.extend takes the matchers", async () => {
    const fake = await searchedThenListed();
    expect(expectToolUse(fake, ["searchCustomer"]).score).toBe(1);
    const failure = (() => {
      try {
        expectToolUse(fake, ["customer_c123_getAverageSpend"]);
      } catch (error) {
        return error;
      }
    })();
    expect(failure).toBeInstanceOf(ToolUseExpectationError);
    expect((failure as Error).message).toContain(
      "✗ customer_c123_getAverageSpend: offered at step 2, not chosen",
    );

    expect.extend(toolUseMatchers);
    type Matchers = {
      toUseTools(e: unknown[]): void;
      toScoreToolUseAtLeast(e: unknown[], min: number): void;
      not: { toUseTools(e: unknown[]): void };
    };
    const assert = () => expect(fake) as unknown as Matchers; // a fresh assertion each time (`not` sticks)
    assert().toUseTools(["searchCustomer", "findCustomers"]);
    assert().not.toUseTools(["customer_c123_getAverageSpend"]);
    assert().toScoreToolUseAtLeast(["searchCustomer", "customer_c123_getAverageSpend"], 0.5);
    expect(() => assert().toUseTools(["customer_c123_getAverageSpend"])).toThrow(
      /expected the run to make every expected tool call\ntool use: 0 of 1 expected call\(s\) made/,
    );
    // A minimum no score reaches (a percentage) is refused: it would always fail, and under `not` always pass.
    for (const minimum of [80, -1, Number.NaN])
      expect(() => assert().toScoreToolUseAtLeast(["searchCustomer"], minimum)).toThrow(
        `toScoreToolUseAtLeast's minimum must be a score from 0 to 1 (0.8 for 80 %), got ${minimum}`,
      );
  });

  it("anything it cannot read is a clear error naming what it reads", () => {
    const shapes =
      "a run's result (ToolLoopResult), a RunRecorder or FakePromptRunner (or their steps), a run log " +
      "(readRunLog(text), or runView of it; a run paused and resumed: its files' reads in order, in an array), " +
      "or a ToolUseRun ({ steps: [{ step, offered?, calls }] })";
    const refused = (source: unknown) => () => scoreToolUse(source as never, ["searchCustomer"]);
    expect(refused('{"type":"run"}')).toThrow(
      `scoreToolUse cannot read a string: pass ${shapes}. A run log's text is read with readRunLog(text) first.`,
    );
    expect(refused({ events: [] })).toThrow(
      `scoreToolUse cannot read an object with the keys events: pass ${shapes}.`,
    );
    expect(refused(undefined)).toThrow(EntityToolsError);
    expect(refused({ steps: [{ step: 1 }] })).toThrow(EntityToolsError);
    // An array of neither steps nor run logs (it threw a bare TypeError).
    expect(refused([{ step: 1 }])).toThrow(
      `scoreToolUse cannot read an array of other things: pass ${shapes}.`,
    );
    expect(() => scoreToolUse.many(["{}" as never], ["searchCustomer"])).toThrow(/cannot read a string/);
  });
});
