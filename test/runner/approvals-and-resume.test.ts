// Approvals, snapshots and resume through the real loop: a run stops before calls that need a person's
// decision, and goes on from a JSON snapshot in a fresh runner with providers re-bound to live objects.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Ajv } from "ajv";
import addFormats from "ajv-formats";
import { Exclude } from "class-transformer";
import { APICallError } from "@ai-sdk/provider";
import { describe, expect, it } from "vitest";
import {
  ApprovalRequiredError,
  defineTool,
  LlmTool,
  ModelCallError,
  PromptRunner,
  readRunLog,
  runView,
  SnapshotError,
  ToolProvider,
  type RunSnapshot,
  type ToolLoopEvent,
  type ToolLoopResult,
} from "entity-tools";
import {
  call,
  mockModel,
  NewestMockModel,
  offeredAt,
  text,
  toolResultsSeenAt,
} from "../support/mock-model.js";
import { generateResult } from "entity-tools/testing";

/** Refunds actually issued, across runners: the side effect that must happen exactly once. */
const issued: string[] = [];

class Ledger {
  readonly secret = "postgres://refunds:hunter2@db/refunds";
}

@ToolProvider({ prefix: "order" })
class Order {
  @Exclude() private readonly ledger: Ledger;
  constructor(
    public id: string,
    public total: number,
    ledger: Ledger,
  ) {
    this.ledger = ledger;
  }

  @LlmTool({
    description: "Refund this order",
    needsApproval: true,
    parameters: { type: "object", properties: { reason: { type: "string" } }, required: ["reason"] },
  })
  refund(reason: string): string {
    issued.push(`${this.id}: ${reason}`);
    return `refunded ${this.total} for ${reason} (${this.ledger ? "booked" : "?"})`;
  }

  @LlmTool("Show this order")
  show(): string {
    return `order ${this.id}: ${this.total}`;
  }
}

const orders = new Map([["o1", new Order("o1", 40, new Ledger())]]);
const findOrder = defineTool<{ id: string }, Order | undefined>({
  name: "findOrder",
  description: "Find an order",
  inputSchema: { type: "object", properties: { id: { type: "string" } }, required: ["id"] },
  execute: ({ id }) => orders.get(id),
});
const resolveProvider = (providerClass: string, id: string | number) =>
  providerClass === "Order" ? orders.get(String(id)) : undefined;

const runnerWith = (model: ReturnType<typeof mockModel>) =>
  new PromptRunner({ model }).withTools(findOrder).withToolProviderDiscovery();

/** A run that found order o1 and then asked, in one message, to refund it and to show it. */
async function pausedRun(): Promise<ToolLoopResult<string>> {
  const model = mockModel(call("findOrder", { id: "o1" }), {
    toolCalls: [
      { toolName: "order_o1_show" },
      { toolName: "order_o1_refund", input: { reason: "damaged" } },
      { toolName: "order_o1_show" },
    ],
  });
  return runnerWith(model).run("Refund o1, it arrived damaged");
}

const asJson = (snapshot: RunSnapshot) => JSON.parse(JSON.stringify(snapshot)) as RunSnapshot;

describe("approvals", () => {
  it("a call that needs approval stops the run before it: earlier calls ran, later ones wait with it", async () => {
    issued.length = 0;
    const run = await pausedRun();
    expect(run.status).toBe("awaiting-approval");
    expect(run.result).toBeUndefined();
    expect(run.pendingApprovals).toEqual([
      {
        approvalId: expect.any(String),
        toolName: "order_o1_refund",
        input: { reason: "damaged" },
        provider: { providerClass: "Order", id: "o1", idType: "string", method: "refund" },
      },
    ]);
    expect(issued).toEqual([]);
    const last = run.conversationHistory.at(-1) as { role: string; content: { output: { value: string } }[] };
    expect(last.role).toBe("tool");
    expect(last.content.map((p) => p.output.value)).toEqual(["order o1: 40"]);
    expect(run.snapshot.paused?.calls.map((c) => c.toolName)).toEqual(["order_o1_refund", "order_o1_show"]);
  });

  it("the snapshot is plain JSON, with discovered tools as class, id and method, and nothing @Exclude'd", async () => {
    const { snapshot } = await pausedRun();
    expect(asJson(snapshot)).toEqual(snapshot);
    expect(snapshot.tools).toContainEqual({
      name: "order_o1_refund",
      providerClass: "Order",
      id: "o1",
      idType: "string",
      method: "refund",
    });
    expect(snapshot.tools).toContainEqual({ name: "findOrder" });
    expect(JSON.stringify(snapshot)).not.toContain("hunter2");
    expect(snapshot).toMatchObject({ format: "entity-tools/run-snapshot", version: 2, iterations: 2 });
  });

  it("approved in a fresh runner from the JSON snapshot: the call runs once, the waiting one too, the run goes on", async () => {
    issued.length = 0;
    const paused = await pausedRun();
    const model = mockModel(text("Refunded."));
    const run = await runnerWith(model).resume(asJson(paused.snapshot), {
      approvals: { [paused.pendingApprovals[0]!.approvalId]: { approved: true } },
      resolveProvider,
    });
    expect(run.status).toBe("completed");
    expect(run.result).toBe("Refunded.");
    expect(issued).toEqual(["o1: damaged"]);
    expect(toolResultsSeenAt(model, 0).slice(-3)).toEqual([
      "order o1: 40",
      "refunded 40 for damaged (booked)",
      "order o1: 40",
    ]);
    expect(offeredAt(model, 0)).toContain("order_o1_refund"); // re-bound to the live order
    expect(run.totalIterations).toBe(3);
  });

  it("denied: the model reads an error result with the reason, and nothing is refunded", async () => {
    issued.length = 0;
    const paused = await pausedRun();
    const model = mockModel(text("I could not refund it."));
    await runnerWith(model).resume(asJson(paused.snapshot), {
      approvals: { [paused.pendingApprovals[0]!.approvalId]: { approved: false, reason: "over the limit" } },
      resolveProvider,
    });
    expect(issued).toEqual([]);
    expect(toolResultsSeenAt(model, 0).slice(-2)).toEqual([
      "Not run: a person denied this call: over the limit.",
      "order o1: 40",
    ]);
  });

  it("a denial reaches observers as decided and not approved, with the person's reason", async () => {
    const paused = await pausedRun();
    const approvalId = paused.pendingApprovals[0]!.approvalId;
    const events: ToolLoopEvent[] = [];
    await runnerWith(mockModel(text("I could not refund it.")))
      .withObserver((e) => events.push(e))
      .resume(asJson(paused.snapshot), {
        approvals: { [approvalId]: { approved: false, reason: "over the limit" } },
        resolveProvider,
      });
    expect(events.filter((e) => e.type === "ApprovalDecided")).toEqual([
      expect.objectContaining({ approvalId, approved: false, reason: "over the limit" }),
    ]);
  });

  it("undecided calls pause the run again; createObject and generateText throw ApprovalRequiredError with the run", async () => {
    const paused = await pausedRun();
    const again = await runnerWith(mockModel()).resume(asJson(paused.snapshot), { resolveProvider });
    expect(again.status).toBe("awaiting-approval");
    expect(again.pendingApprovals).toEqual(paused.pendingApprovals);
    const model = mockModel(call("findOrder", { id: "o1" }), call("order_o1_refund", { reason: "x" }));
    const error = await runnerWith(model)
      .generateText("Refund o1")
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApprovalRequiredError);
    expect((error as ApprovalRequiredError).run.pendingApprovals[0]!.toolName).toBe("order_o1_refund");
  });

  it("withApproval picks calls to approve by input", async () => {
    const model = mockModel(call("findOrder", { id: "o1" }), call("findOrder", { id: "o9" }));
    const run = await runnerWith(model)
      .withApproval((c) => c.toolName === "findOrder" && (c.input as { id: string }).id === "o9")
      .run("q");
    expect(run.pendingApprovals).toMatchObject([{ toolName: "findOrder", input: { id: "o9" } }]);
  });

  it("the predicate is asked once per call, also for the call that pauses the run", async () => {
    const asked: string[] = [];
    const model = mockModel({
      toolCalls: [
        { toolName: "findOrder", input: { id: "o1" } },
        { toolName: "findOrder", input: { id: "o2" } },
      ],
    });
    const run = await runnerWith(model)
      .withApproval((c) => {
        asked.push((c.input as { id: string }).id);
        return true;
      })
      .run("q");
    expect(run.pendingApprovals.map((p) => p.input)).toEqual([{ id: "o1" }, { id: "o2" }]);
    expect(asked).toEqual(["o1", "o2"]);
  });
});

describe("resume", () => {
  it("after a failed run: the error carries a snapshot, and the run goes on from where it failed", async () => {
    let calls = 0;
    const failing = new NewestMockModel({
      doGenerate: async () => {
        if (calls++ === 0)
          return generateResult({ toolCalls: [{ toolName: "findOrder", input: { id: "o1" } }] });
        throw new APICallError({
          message: "upstream 500",
          url: "x",
          requestBodyValues: {},
          statusCode: 500,
          isRetryable: false,
        });
      },
    });
    const error = await new PromptRunner({ model: failing, modelSettings: { maxRetries: 0 } })
      .withTools(findOrder)
      .withToolProviderDiscovery()
      .run("Show o1")
      .catch((e: unknown) => e as ModelCallError);
    expect(error).toBeInstanceOf(ModelCallError);
    const model = mockModel(call("order_o1_show"), text("o1 is 40"));
    const run = await runnerWith(model).resume(asJson(error.snapshot!), { resolveProvider });
    expect(run.result).toBe("o1 is 40");
    expect(toolResultsSeenAt(model, 1)).toEqual(['{"id":"o1","total":40}', "order o1: 40"]);
  });

  it("a provider that can no longer be resolved is reported to the model; the run goes on", async () => {
    const paused = await pausedRun();
    const model = mockModel(text("The order is gone."));
    const run = await runnerWith(model).resume(asJson(paused.snapshot), {
      approvals: { [paused.pendingApprovals[0]!.approvalId]: { approved: true } },
      resolveProvider: () => undefined,
    });
    expect(run.result).toBe("The order is gone.");
    const notice = model.doGenerateCalls[0]!.prompt.at(-1);
    expect(notice?.role).toBe("user");
    expect(JSON.stringify(notice?.content)).toContain("[Cannot restore the tools of Order");
    expect(JSON.stringify(notice?.content)).toContain(
      "(order_o1_refund, order_o1_show): resolveProvider returned nothing; they are no longer available. To get them back",
    );
    expect(offeredAt(model, 0)).not.toContain("order_o1_refund");
  });

  it("a resolver that throws is not told to the model; the caller's observer and the run log get what it threw", async () => {
    const paused = await pausedRun();
    const model = mockModel(text("The order is gone."));
    const thrown = new Error("connect ECONNREFUSED postgres://shop:s3cret@db.internal:5432/orders");
    const events: ToolLoopEvent[] = [];
    const dir = mkdtempSync(path.join(tmpdir(), "resume-unrestored-"));
    try {
      await runnerWith(model)
        .withObserver((e) => events.push(e))
        .withRunLog(dir)
        .resume(asJson(paused.snapshot), {
          approvals: { [paused.pendingApprovals[0]!.approvalId]: { approved: true } },
          resolveProvider: () => {
            throw thrown;
          },
        });
      expect(JSON.stringify(model.doGenerateCalls.map((c) => c.prompt))).not.toContain("s3cret");
      expect(JSON.stringify(model.doGenerateCalls[0]!.prompt.at(-1)?.content)).toContain(
        "(order_o1_refund, order_o1_show): resolveProvider failed (the operator can see why); they are no longer available. " +
          'To get them back, find Order \\"o1\\" again with the tool that returned it.]',
      );
      const removed = events.filter((e) => e.type === "ToolsRemoved");
      expect(removed).toEqual([
        expect.objectContaining({
          toolNames: ["order_o1_refund", "order_o1_show"],
          reason: "unrestored",
          cause: thrown,
        }),
      ]);
      const [file] = readdirSync(dir).filter((f) => f.endsWith(".jsonl"));
      const text = readFileSync(path.join(dir, file!), "utf8");
      const schema = JSON.parse(readFileSync("docs/run-log.schema.json", "utf8")) as object;
      const valid = addFormats.default(new Ajv({ allowUnionTypes: true })).compile(schema);
      for (const line of text.trimEnd().split("\n")) expect(valid(JSON.parse(line)), line).toBe(true);
      const read = readRunLog(text);
      // The viewer shows step 0 (what could not be restored) with its cause.
      expect(runView(read).steps[0]!.other).toContainEqual(
        expect.objectContaining({
          type: "removed",
          reason: "unrestored",
          cause: expect.stringContaining("s3cret"),
        }),
      );
      expect(read.records).toContainEqual(
        expect.objectContaining({
          type: "removed",
          step: 0,
          tools: ["order_o1_refund", "order_o1_show"],
          reason: "unrestored",
          cause: expect.stringContaining("s3cret"),
        }),
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("a bad snapshot is a clear error before any model call", async () => {
    const { snapshot } = await pausedRun();
    const model = mockModel(text("never"));
    await expect(runnerWith(model).resume({ ...asJson(snapshot), version: 99 })).rejects.toThrow(
      "The snapshot has format version 99; this entity-tools reads versions 1 and 2 (and writes 2)",
    );
    await expect(new PromptRunner({ model }).resume(asJson(snapshot))).rejects.toThrow(SnapshotError);
    await expect(new PromptRunner({ model }).resume(asJson(snapshot))).rejects.toThrow(
      "The snapshot's run had tools this runner does not offer: findOrder.",
    );
    expect(model.doGenerateCalls).toHaveLength(0);
  });
});
