// A step has one number wherever a user reads it: the stream's `step-finish`, a strategy's
// `iterationCount`, the events (`ToolLoopIteration`, `ToolCallStarted`), telemetry's `entity_tools.step`, the
// run log's `iteration`, the debug log's `step N` and `cost.perStep`. It is the run's step number, what
// `withMaxToolIterations` counts: a restart from the prompt (a section read, a strategy's restart), a
// backend's new thread and a paused run resumed go on counting; a continued conversation's turn, a new
// prompt with its own allowance, counts from 1 again. The last step's number is the result's
// `totalIterations`, but for a continued turn, whose `totalIterations` counts the earlier turns' steps too.
import "../../fixtures/store/register.js";
import { readdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  AiSdkAdapter,
  PromptRunner,
  defineTool,
  readRunLog,
  type Conversation,
  type ConversationAdapter,
  type ConversationSetup,
  type ModelAdapter,
  type RunSnapshot,
  type RunStream,
  type ToolInjectionStrategy,
  type ToolLoopEvent,
  type ToolLoopResult,
} from "entity-tools";
import { CustomerSearchTools } from "../../fixtures/store/customer-search-tools.js";
import { supportPrompt } from "../../fixtures/store/support-prompt.js";
import { ScriptedLanguageModel } from "entity-tools/testing";
import { call, mockModel, text } from "../../support/mock-model.js";
import { memoryTracer } from "../../support/span-tree.js";
import { tempDir } from "../../support/temp-dir.js";

/** The step numbers (and each call's, as `tool@step`) that every place reported, by place. */
interface Reported {
  readonly steps: Record<string, readonly number[]>;
  readonly calls: Record<string, readonly string[]>;
}

/**
 * `runner` watched everywhere a step's number shows: a strategy, an observer, telemetry, a run log, a
 * debug logger and pricing; and the `step-finish` parts of the streams read through `read`, if any.
 */
function watched<R extends PromptRunner>(runner: R) {
  const strategy: string[] = [];
  const events: ToolLoopEvent[] = [];
  const debug: string[] = [];
  let streamed: number[] | undefined;
  const { tracer, spans } = memoryTracer();
  const dir = tempDir("step-numbers-");
  const counting: ToolInjectionStrategy = {
    evaluateToolResult: (context) => {
      strategy.push(`${context.lastToolCall.toolName}@${context.iterationCount}`);
      return {};
    },
  };
  const logged = (line: string) => debug.push(line);
  return {
    runner: runner
      .withInjectionStrategy(counting)
      .withObserver((e) => events.push(e))
      .withTelemetry({ tracer })
      .withRunLog(dir)
      .withLogger({ info: logged, warn: logged, error: logged })
      .withPricing({ input: 1, cachedInput: 1, output: 1 }),
    /** Reads a stream to its end, keeping its `step-finish` numbers; its result. */
    async read<T>(stream: RunStream<T>): Promise<ToolLoopResult<T>> {
      streamed ??= [];
      for await (const part of stream.parts) if (part.type === "step-finish") streamed.push(part.iteration);
      return stream.result;
    },
    /** What every place reported, since the last call (the runs' logs are removed). */
    reported(results: readonly ToolLoopResult<unknown>[]): Reported {
      const log = readdirSync(dir)
        .sort()
        .flatMap((file) => readRunLog(readFileSync(path.join(dir, file), "utf8")).records);
      rmSync(dir, { recursive: true, force: true });
      // A resumed run's cost is the whole run's, the paused part's steps first: this call's are its last.
      const own = events.filter((e) => e.type === "ModelResponded").length;
      const attribute = (name: string) =>
        spans()
          .filter((s) => s.name.startsWith(name))
          .sort((a, b) => a.startTime[0] - b.startTime[0] || a.startTime[1] - b.startTime[1]);
      return {
        steps: {
          ...(streamed ? { stream: streamed } : {}),
          events: events.flatMap((e) => (e.type === "ToolLoopIteration" ? [e.iteration] : [])),
          telemetry: attribute("chat").map((s) => Number(s.attributes["entity_tools.step"])),
          runLog: log.flatMap((r) => (r.type === "step" ? [r.iteration] : [])),
          debugLog: debug.flatMap((line) => /\] step (\d+)/.exec(line)?.slice(1).map(Number) ?? []),
          cost: results.flatMap((r) => r.cost?.perStep.slice(-own).map((s) => s.iteration) ?? []),
        },
        calls: {
          strategy,
          events: events.flatMap((e) =>
            e.type === "ToolCallStarted" ? [`${e.toolName}@${e.iteration}`] : [],
          ),
          telemetry: attribute("execute_tool ").map(
            (s) => `${String(s.attributes["gen_ai.tool.name"])}@${String(s.attributes["entity_tools.step"])}`,
          ),
        },
      };
    },
  };
}

/**
 * Every place reported `steps`, and every call at `calls`; a strategy saw the calls that ran (`ran`: all,
 * unless a call waits for approval).
 */
function expectEverywhere(reported: Reported, steps: number[], calls: string[], ran = calls): void {
  const { strategy, ...observers } = reported.calls;
  const expected = {
    steps: Object.fromEntries(Object.keys(reported.steps).map((place) => [place, steps])),
    calls: Object.fromEntries(Object.keys(observers).map((place) => [place, calls])),
  };
  expect({ steps: reported.steps, calls: observers }).toEqual(expected);
  expect(strategy).toEqual(ran);
}

/** A process restart: the snapshot as a store keeps it. */
const stored = (snapshot: RunSnapshot) => JSON.parse(JSON.stringify(snapshot)) as RunSnapshot;
const approveAll = (run: ToolLoopResult<unknown>) =>
  Object.fromEntries(run.pendingApprovals.map((p) => [p.approvalId, { approved: true }]));

const lookup = defineTool({ name: "lookup", description: "Looks something up", execute: () => "found" });
const refund = defineTool({ name: "refund", description: "Refunds", execute: () => "refunded" });
const refunds = (options: ConstructorParameters<typeof PromptRunner>[0]) =>
  new PromptRunner(options).withTools(lookup, refund).withApproval((c) => c.toolName === "refund");

describe("a step's number, the run's, the same everywhere", () => {
  it("goes on after a restart from the prompt (a section read on a backend without dynamic tools)", async () => {
    const model = mockModel(
      call("searchCustomer", { name: "John Smith" }),
      call("read_section", { section_key: "policies" }), // restarts from the prompt
      call("searchCustomer", { name: "John Smith" }),
      text("done"),
    );
    const inner = new AiSdkAdapter(model);
    const adapter: ModelAdapter = { supportsDynamicTools: false, step: (request) => inner.step(request) };
    const watch = watched(
      new PromptRunner({ adapter })
        .withTools(new CustomerSearchTools())
        .withSystemPrompt(supportPrompt(), { company: "Acme" }),
    );

    const run = await watch.read(watch.runner.stream("Find John Smith"));

    expect(run.counters.restarts).toBe(1);
    expectEverywhere(
      watch.reported([run]),
      [1, 2, 3, 4],
      ["searchCustomer@1", "read_section@2", "searchCustomer@3"],
    );
    expect(run.totalIterations).toBe(4);
  });

  it("goes on after a strategy's restart", async () => {
    let restarted = false;
    const model = new ScriptedLanguageModel().callTool("lookup").callTool("lookup").respondWithText("done");
    const watch = watched(
      new PromptRunner({ model }).withTools(lookup).withInjectionStrategy({
        evaluateToolResult: () => (restarted ? {} : ((restarted = true), { restart: { reason: "again" } })),
      }),
    );

    const run = await watch.read(watch.runner.stream("Look it up"));

    expect(run.counters.restarts).toBe(1);
    // The restart asked after the first call comes before the watching strategy, which sees the second only.
    expectEverywhere(watch.reported([run]), [1, 2, 3], ["lookup@1", "lookup@2"], ["lookup@2"]);
    expect(run.totalIterations).toBe(3);
  });

  it("goes on after a pause, resumed in another process: the approved call is its step's, the next step the 3rd", async () => {
    const model = new ScriptedLanguageModel()
      .callTool("lookup")
      .callTool("refund")
      .callTool("lookup")
      .respondWithText("refunded");
    const first = watched(refunds({ model }));
    const paused = await first.read(first.runner.stream("Refund it"));
    expect(paused.status).toBe("awaiting-approval");
    expectEverywhere(first.reported([paused]), [1, 2], ["lookup@1"]); // the refund waits, not started

    const second = watched(refunds({ model }));
    const run = await second.read(
      second.runner.resumeStream(stored(paused.snapshot), { approvals: approveAll(paused) }),
    );

    expectEverywhere(second.reported([run]), [3, 4], ["refund@2", "lookup@3"]);
    expect(run.totalIterations).toBe(4);
    expect(run.cost!.perStep.map((s) => s.iteration)).toEqual([1, 2, 3, 4]); // the whole run's, as usage
  });

  it("starts at 1 in a continued conversation's turn, a new prompt (totalIterations counts the earlier turns)", async () => {
    const model = new ScriptedLanguageModel()
      .callTool("lookup")
      .respondWithText("first answer")
      .callTool("lookup")
      .respondWithText("second answer");
    const first = await refunds({ model }).run("Look it up");
    const watch = watched(refunds({ model }));

    const turn = await watch.read(watch.runner.stream("Again", { continueFrom: stored(first.snapshot) }));

    expectEverywhere(watch.reported([turn]), [1, 2], ["lookup@1"]);
    expect(turn.totalIterations).toBe(4);
  });
});

/**
 * A conversation backend whose first thread calls `lookup`, which a strategy answers with a new tool; the
 * thread is stopped and a new one started: in `restart` mode by the run, in `dynamic` mode because the
 * backend could not offer the tool in time (a fallback). The new thread calls `lookup` and answers.
 */
class NewThreadBackend implements ConversationAdapter {
  readonly supportsDynamicTools: boolean;
  private threads = 0;

  constructor(readonly newTools: "restart" | "dynamic") {
    this.supportsDynamicTools = newTools === "dynamic";
  }

  openConversation(setup: ConversationSetup): Promise<Conversation> {
    const thread = ++this.threads;
    return Promise.resolve({
      send: async () => {
        const result = await setup.callTool({ toolCallId: `c${thread}`, toolName: "lookup", input: {} });
        if (result.tools) {
          const toolsNotOffered = { toolNames: ["refund"], reason: "the thread was busy" };
          return { text: "", stopped: true, toolsNotOffered };
        }
        if (result.stopTurn) return { text: "", stopped: true };
        // Its tokens, as a real backend's last turn reports them (a turn without has an unknown cost, C19).
        return { text: "done", stopped: false, usage: { inputTokens: 1, outputTokens: 1 } };
      },
      close: () => Promise.resolve(),
    });
  }
}

describe("a step's number on a conversation backend", () => {
  it.each(["restart", "dynamic"] as const)(
    "goes on in a new thread (%s mode); streamed, each step ends",
    async (mode) => {
      let added = false;
      const watch = watched(
        new PromptRunner({ adapter: new NewThreadBackend(mode) }).withTools(lookup).withInjectionStrategy({
          evaluateToolResult: () => (added ? {} : ((added = true), { add: [refund] })),
        }),
      );

      const run = await watch.read(watch.runner.stream("Look it up"));

      expect(run.counters.restarts).toBe(1);
      expectEverywhere(watch.reported([run]), [1, 2, 3], ["lookup@1", "lookup@2"]);
      expect(run.totalIterations).toBe(3);
    },
  );
});
