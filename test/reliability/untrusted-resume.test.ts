// Approvals and resume against hostile input (docs/reliability.md, A and S rows): a decision approves
// exactly the call a person saw, once; a snapshot is untrusted input, checked whole before anything runs;
// a provider that comes back through resolveProvider is the one the snapshot names, or nothing.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { Checking, Savings } from "../fixtures/colliding-accounts.js";
import {
  defineTool,
  EntityHandleCodec,
  EntityToolsError,
  LlmTool,
  MarkdownSection,
  PromptRunner,
  PromptTemplate,
  PromptTemplateError,
  SectionVisibility,
  SnapshotError,
  ToolLoopAbortedError,
  ToolProvider,
  type RunSnapshot,
  type ToolLoopResult,
} from "entity-tools";
import { call, mockModel, offeredAt, text, toolResultsSeenAt } from "../support/mock-model.js";

/** Refunds actually issued: the side effect a person approves. */
const issued: string[] = [];

@ToolProvider({ prefix: "order" })
class Order {
  constructor(public id: string | bigint) {}

  @LlmTool({
    description: "Refund this order",
    needsApproval: true,
    parameters: { type: "object", properties: { amount: { type: "number" } }, required: ["amount"] },
  })
  refund(amount: number): string {
    issued.push(`${String(this.id)}: ${amount}`);
    return `refunded ${amount} on ${String(this.id)}`;
  }

  @LlmTool("Show this order")
  show(): string {
    return `order ${typeof this.id}:${String(this.id)}`;
  }
}

@ToolProvider({ prefix: "order" })
class Customer {
  constructor(public id: string) {}
  @LlmTool("Show this customer")
  show(): string {
    return `customer ${this.id}`;
  }
}

const accounts = defineTool({
  name: "accounts",
  description: "accounts",
  inputSchema: { type: "object", properties: {} },
  execute: () => [new Checking("42"), new Savings("42")],
});

/** A run that found two accounts whose tool names collide, closed the checking one and paused on savings. */
async function pausedOnSavings() {
  const model = mockModel(call("accounts"), (o) => ({
    toolCalls: (o.tools ?? [])
      .filter((t) => t.name.startsWith("acct_42_") && t.name.endsWith("_close"))
      .map((t) => ({ toolName: t.name })),
  }));
  const run = await accountsRunner(model).run("close the savings account");
  return { model, run };
}

const accountsRunner = (model: ReturnType<typeof mockModel>) =>
  new PromptRunner({ model })
    .withTools(accounts)
    .withToolProviderDiscovery()
    .withApproval((c) => c.provider?.providerClass === "Savings" && c.provider.method === "close");

const orders = new Map<string, Order>([["o1", new Order("o1")]]);
const findOrder = defineTool<{ id: string }, Order | undefined>({
  name: "findOrder",
  description: "Find an order",
  inputSchema: { type: "object", properties: { id: { type: "string" } }, required: ["id"] },
  execute: ({ id }) => orders.get(id),
});
const resolveProvider = (providerClass: string, id: string | number | bigint) =>
  providerClass === "Order" ? orders.get(String(id)) : undefined;

const runnerWith = (model: ReturnType<typeof mockModel>) =>
  new PromptRunner({ model }).withTools(findOrder).withToolProviderDiscovery();

const asJson = (snapshot: RunSnapshot) => JSON.parse(JSON.stringify(snapshot)) as RunSnapshot;

/** A run that found o1 and asked to refund 40 on it, in a call with the id `refund-1`. */
async function pausedRun(): Promise<ToolLoopResult<string>> {
  issued.length = 0;
  const model = mockModel(call("findOrder", { id: "o1" }), {
    toolCalls: [{ toolName: "order_o1_refund", input: { amount: 40 }, toolCallId: "refund-1" }],
  });
  return runnerWith(model).run("Refund o1");
}

describe("approvals: a decision approves the call a person saw, once", () => {
  it("A01 a later call that reuses an approved call's id is asked again, not run", async () => {
    const paused = await pausedRun();
    const model = mockModel(
      { toolCalls: [{ toolName: "order_o1_refund", input: { amount: 4000 }, toolCallId: "refund-1" }] },
      text("never"),
    );
    const run = await runnerWith(model).resume(asJson(paused.snapshot), {
      approvals: { "refund-1": { approved: true } },
      resolveProvider,
    });
    expect(issued).toEqual(["o1: 40"]);
    expect(run.status).toBe("awaiting-approval");
    // a new call under an id of its own in the conversation (W07): the decision given for refund-1 cannot reach it
    expect(run.pendingApprovals).toMatchObject([{ approvalId: "refund-1_2", input: { amount: 4000 } }]);
  });

  it("A02 a decision for an id that was never pending pre-approves nothing", async () => {
    const paused = await pausedRun();
    const model = mockModel(
      { toolCalls: [{ toolName: "order_o1_refund", input: { amount: 9 }, toolCallId: "future" }] },
      text("never"),
    );
    const run = await runnerWith(model).resume(asJson(paused.snapshot), {
      approvals: { "refund-1": { approved: false, reason: "no" }, future: { approved: true } },
      resolveProvider,
    });
    expect(issued).toEqual([]);
    expect(run.status).toBe("awaiting-approval");
    expect(run.pendingApprovals).toMatchObject([{ approvalId: "future", input: { amount: 9 } }]);
  });

  it.each(["constructor", "toString", "__proto__", "hasOwnProperty"])(
    "A03 a call whose id is %j runs normally when no approvals are configured",
    async (id) => {
      const model = mockModel(
        { toolCalls: [{ toolName: "findOrder", input: { id: "o1" }, toolCallId: id }] },
        text("done"),
      );
      const run = await runnerWith(model).run("q");
      expect(run.status).toBe("completed");
      expect(toolResultsSeenAt(model, 1)).toEqual(['{"id":"o1"}']);
    },
  );

  it("A04 on resume, approvals parsed from JSON with a __proto__ key decide nothing but their own ids", async () => {
    const paused = await pausedRun();
    const model = mockModel(
      { toolCalls: [{ toolName: "findOrder", input: { id: "o1" }, toolCallId: "constructor" }] },
      text("done"),
    );
    const approvals = JSON.parse(
      '{"__proto__": {"approved": false}, "refund-1": {"approved": true}}',
    ) as Record<string, { approved: true }>;
    const run = await runnerWith(model).resume(asJson(paused.snapshot), { approvals, resolveProvider });
    expect(run.status).toBe("completed");
    expect(toolResultsSeenAt(model, 1).slice(-2)).toEqual(["refunded 40 on o1", '{"id":"o1"}']);
  });

  it("A05 a rule on the provider's identity catches a renamed tool (acct_42_<hash>_close)", async () => {
    const { run } = await pausedOnSavings();
    expect(run.status).toBe("awaiting-approval");
    expect(run.pendingApprovals).toEqual([
      {
        approvalId: expect.any(String),
        toolName: expect.stringMatching(/^acct_42_[0-9a-z]{16}_close$/),
        input: {},
        provider: { providerClass: "Savings", id: "42", idType: "string", method: "close" },
      },
    ]);
    const last = run.conversationHistory.at(-1) as { content: { output: { value: string } }[] };
    expect(last.content.map((p) => p.output.value)).toEqual(["closed checking 42"]);
  });

  it("A10 in handles mode a rule on the provider sees the provider each call's handle names", async () => {
    @ToolProvider({ prefix: "ticket" })
    class Ticket {
      constructor(public id: string) {}
      @LlmTool("Close this ticket")
      close(): string {
        return `closed ${this.id}`;
      }
    }
    const tickets = [new Ticket("t1"), new Ticket("t2")];
    const open = defineTool({
      name: "openTickets",
      description: "Open tickets",
      inputSchema: { type: "object", properties: {} },
      execute: () => tickets,
    });
    const codec = new EntityHandleCodec("a10-key-of-sixteen-bytes");
    const model = mockModel(call("openTickets"), {
      toolCalls: tickets.map((t) => ({ toolName: "ticket_close", input: { handle: codec.handleOf(t) } })),
    });
    const run = await new PromptRunner({ model })
      .withTools(open)
      .withToolProviderDiscovery({ binding: "handles", handleKey: "a10-key-of-sixteen-bytes" })
      .withApproval((c) => c.provider?.providerClass === "Ticket" && c.provider.id === "t2")
      .run("close them");
    expect(run.pendingApprovals).toEqual([
      {
        approvalId: expect.any(String),
        toolName: "ticket_close",
        input: { handle: codec.handleOf(tickets[1]!) },
        provider: { providerClass: "Ticket", id: "t2", idType: "string", method: "close" },
      },
    ]);
    const last = run.conversationHistory.at(-1) as { content: { output: { value: string } }[] };
    expect(last.content.map((p) => p.output.value)).toEqual(["closed t1"]);
  });

  it("A06 editing a pending call's input (to show it) does not change what runs", async () => {
    const paused = await pausedRun();
    (paused.pendingApprovals[0]!.input as { amount: number }).amount = 999_999;
    await runnerWith(mockModel(text("ok"))).resume(paused.snapshot, {
      approvals: { "refund-1": { approved: true } },
      resolveProvider,
    });
    expect(issued).toEqual(["o1: 40"]);
  });

  it("A07 a run's snapshot settings are its own: changing them changes no other runner", async () => {
    const first = await new PromptRunner({ model: mockModel(text("a")) }).run("q");
    (first.snapshot.settings as { maxIterations: number }).maxIterations = 1;
    const second = await new PromptRunner({ model: mockModel(text("b")) }).run("q");
    expect(second.snapshot.settings.maxIterations).toBe(20);
  });
});

describe("resume: the snapshot is untrusted input", () => {
  const bad: [string, (s: Record<string, unknown>) => unknown][] = [
    [
      "counters with a __proto__ key",
      (s) => JSON.parse(JSON.stringify(s).replace('"counters":{', '"counters":{"__proto__":{"polluted":1},')),
    ],
    ['iterations: "abc"', (s) => ({ ...s, iterations: "abc" })],
    ["expansions: -1 (restarts below none, to outrun withMaxExpansions)", (s) => ({ ...s, expansions: -1 })],
    [
      "turnIterations: -1 (model calls below none, to outrun withMaxToolIterations)",
      (s) => ({ ...s, turnIterations: -1 }),
    ],
    ["a null tool entry", (s) => ({ ...s, tools: [...(s.tools as unknown[]), null] })],
    ["a null history message", (s) => ({ ...s, history: [null] })],
    ["history that is not an array", (s) => ({ ...s, history: "hi" })],
    ["a paused call without an id", (s) => ({ ...s, paused: { iteration: 1, calls: [{ toolName: "x" }] } })],
    ["a visibility of an unknown kind", (s) => ({ ...s, visibility: { a: "HIDDEN" } })],
    ["usage with a negative count", (s) => ({ ...s, usage: { inputTokens: -1, outputTokens: 0 } })],
    ["a provider tool with a number id given as text", (s) => withTool(s, { id: "1", idType: "number" })],
    ['a provider tool named "evil name!"', (s) => withTool(s, { name: "evil name!" })],
    ["a provider tool with a 100-character name", (s) => withTool(s, { name: "a".repeat(100) })],
    ["a snapshot that is null", () => null],
    [
      "paused calls after a user message",
      (s) => ({ ...s, history: [...(s.history as unknown[]), { role: "user", content: "hi" }] }),
    ],
  ];

  it.each(bad)("S01 %s is a SnapshotError before any model call", async (_, spoil) => {
    const { snapshot } = await pausedRun();
    const model = mockModel(text("never"));
    let resolved = 0;
    const error = await runnerWith(model)
      .resume(spoil(asJson(snapshot) as unknown as Record<string, unknown>) as RunSnapshot, {
        resolveProvider: () => {
          resolved++;
          return orders.get("o1");
        },
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SnapshotError);
    expect(error).toBeInstanceOf(EntityToolsError);
    expect((error as Error).message).toMatch(/snapshot/i);
    expect(model.doGenerateCalls).toHaveLength(0);
    expect(resolved).toBe(0);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("S02 the SnapshotError names the field", async () => {
    const { snapshot } = await pausedRun();
    await expect(
      runnerWith(mockModel()).resume({ ...asJson(snapshot), iterations: "abc" } as unknown as RunSnapshot),
    ).rejects.toThrow('The snapshot is not a valid run snapshot: field "iterations" must be integer. Resume');
    await expect(
      runnerWith(mockModel()).resume(withTool(asJson(snapshot) as never, { name: "evil name!" }) as never),
    ).rejects.toThrow(
      /^The snapshot is not a valid run snapshot: field "tools\.\d\.name" must match pattern "\^\[a-zA-Z_\]\[a-zA-Z0-9_-\]\{0,63\}\$"[;.]/,
    );
  });

  it.each([
    [
      "an instance of another class",
      () => new Customer("o1"),
      "returned an object of class Customer, not of class Order",
    ],
    ["the same class with another id", () => new Order("o2"), 'returned the one with id "o2", not "o1"'],
    ["the same id with another type", () => new Order(1n), 'returned the one with id 1n, not "o1"'],
  ])(
    "S03 a resolver that returns %s is refused: the model is told, nothing is bound",
    async (_, wrong, why) => {
      const paused = await pausedRun();
      const model = mockModel(text("gone"));
      await runnerWith(model).resume(asJson(paused.snapshot), {
        approvals: { "refund-1": { approved: true } },
        resolveProvider: wrong,
      });
      expect(issued).toEqual([]);
      expect(offeredAt(model, 0)).not.toContain("order_o1_show");
      const notice = JSON.stringify(model.doGenerateCalls[0]!.prompt.at(-1)?.content);
      expect(notice).toContain(
        `Cannot restore the tools of Order \\"o1\\" (order_o1_refund, order_o1_show): resolveProvider ${JSON.stringify(why).slice(1, -1)}; they are no longer available.`,
      );
    },
  );

  it("S04 a resolver that never settles does not keep resume waiting once the signal aborts", async () => {
    const paused = await pausedRun();
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error("user left")), 20);
    const started = Date.now();
    const error = await runnerWith(mockModel(text("never")))
      .resume(asJson(paused.snapshot), {
        resolveProvider: () => new Promise(() => {}),
        signal: controller.signal,
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ToolLoopAbortedError);
    expect((error as Error).message).toBe("The run was aborted: user left");
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it("S05 a bigint id is recorded with its type, and the resolver receives a bigint", async () => {
    const big = new Order(12345678901234567890n);
    const find = defineTool({
      name: "findOrder",
      description: "Find an order",
      inputSchema: { type: "object", properties: {} },
      execute: () => big,
    });
    const name = "order_12345678901234567890_show";
    const first = await new PromptRunner({ model: mockModel(call("findOrder"), text("found")) })
      .withTools(find)
      .withToolProviderDiscovery()
      .run("q");
    expect(first.snapshot.tools).toContainEqual({
      name,
      providerClass: "Order",
      id: "12345678901234567890",
      idType: "bigint",
      method: "show",
    });
    const received: unknown[] = [];
    const model = mockModel(call(name), text("done"));
    await new PromptRunner({ model })
      .withTools(find)
      .withToolProviderDiscovery()
      .resume(asJson(first.snapshot), {
        resolveProvider: (_cls, id) => {
          received.push(id);
          return big;
        },
      });
    expect(received).toEqual([12345678901234567890n]);
    expect(toolResultsSeenAt(model, 1).at(-1)).toBe("order bigint:12345678901234567890");
  });

  it("S06 resume works on a copy: the caller's snapshot is not changed, and changing it mid-run changes nothing", async () => {
    const paused = await pausedRun();
    const snapshot = asJson(paused.snapshot);
    const before = JSON.stringify(snapshot);
    const run = await runnerWith(mockModel(text("ok"))).resume(snapshot, {
      approvals: { "refund-1": { approved: true } },
      resolveProvider: (cls, id) => {
        (snapshot.paused!.calls[0]!.input as { amount: number }).amount = 999_999; // while the run resumes
        return resolveProvider(cls, id);
      },
    });
    expect(issued).toEqual(["o1: 40"]);
    expect(run.snapshot.paused).toBeUndefined();
    (snapshot.paused!.calls[0]!.input as { amount: number }).amount = 40;
    expect(JSON.stringify(snapshot)).toBe(before);
  });

  it("S07 a snapshot that calls one method by another's name restores nothing of that provider", async () => {
    const paused = await pausedRun();
    const snapshot = asJson(paused.snapshot);
    const tampered = {
      ...snapshot,
      tools: snapshot.tools.map((t) => (t.name === "order_o1_show" ? { ...t, method: "refund" } : t)),
    };
    const model = mockModel(text("gone"));
    await runnerWith(model).resume(tampered, { resolveProvider });
    expect(offeredAt(model, 0)).not.toContain("order_o1_show");
    expect(JSON.stringify(model.doGenerateCalls[0]!.prompt.at(-1)?.content)).toContain(
      'the snapshot calls its refund tool \\"order_o1_show\\", not order_o1_refund',
    );
  });

  it("S09 a stored version-1 snapshot (a fixture written by an earlier release) passes the check and resumes", async () => {
    issued.length = 0;
    const stored = JSON.parse(readFileSync("test/fixtures/snapshots/v1-paused.json", "utf8")) as RunSnapshot;
    const model = mockModel(text("Refunded."));
    const run = await runnerWith(model).resume(stored, {
      approvals: { "refund-1": { approved: true } },
      resolveProvider,
    });
    expect(run.result).toBe("Refunded.");
    expect(issued).toEqual(["o1: 40"]);
    expect(toolResultsSeenAt(model, 0).slice(-2)).toEqual(["order o1", "refunded 40 on o1"]);
  });

  it("S08 a renamed tool (acct_42_<hash>_close) is restored under its name, and the approved call runs", async () => {
    const { run } = await pausedOnSavings();
    const renamed = run.pendingApprovals[0]!.toolName;
    const model = mockModel(text("closed"));
    const resumed = await accountsRunner(model).resume(asJson(run.snapshot), {
      approvals: { [run.pendingApprovals[0]!.approvalId]: { approved: true } },
      resolveProvider: (cls, id) => (cls === "Savings" ? new Savings(String(id)) : new Checking(String(id))),
    });
    expect(resumed.status).toBe("completed");
    expect(offeredAt(model, 0)).toEqual(["accounts", "acct_42_close", renamed]);
    expect(toolResultsSeenAt(model, 0).at(-1)).toBe("closed savings 42");
  });
});

function withTool(snapshot: Record<string, unknown>, patch: Record<string, unknown>) {
  const tools = (snapshot.tools as Record<string, unknown>[]).map((t) =>
    "providerClass" in t ? { ...t, ...patch } : t,
  );
  return { ...snapshot, tools };
}

describe("keys from the model, a snapshot or a template never index a plain object's prototype", () => {
  it("A08 a tool named __proto__ is offered and called like any other", async () => {
    const proto = defineTool({
      name: "__proto__",
      description: "a tool with an awkward name",
      inputSchema: { type: "object", properties: {} },
      execute: () => "proto ran",
    });
    const model = mockModel(call("__proto__"), text("done"));
    await new PromptRunner({ model }).withTools(proto).run("q");
    expect(offeredAt(model, 0)).toEqual(["__proto__"]);
    expect(toolResultsSeenAt(model, 1)).toEqual(["proto ran"]);
  });

  it("A09 sections keyed constructor and toString follow their own visibility; ${toString} is no parameter", () => {
    const template = new PromptTemplate({
      ns: "t",
      key: "keys",
      sections: [
        new MarkdownSection({ key: "constructor", title: "C", template: "full text", summary: "short" }),
        new MarkdownSection({
          key: "toString",
          title: "T",
          template: "hidden text",
          summary: "a summary",
          visibility: SectionVisibility.SUMMARY,
        }),
      ],
    });
    const rendered = template.render({}, template.visibilityOf({}, {}));
    expect(rendered).toContain("full text");
    expect(rendered).toContain("a summary");
    expect(rendered).not.toContain("hidden text");
    const placeholder = new PromptTemplate({
      ns: "t",
      key: "p",
      sections: [new MarkdownSection({ key: "a", title: "A", template: "uses ${toString}" })],
    });
    expect(() => placeholder.render({}, placeholder.visibilityOf({}))).toThrow(PromptTemplateError);
  });
});

describe("docs/reliability.md", () => {
  it("states the behaviour of every A and S case", () => {
    const doc = readFileSync("docs/reliability.md", "utf8");
    const ids = [
      ...Array.from({ length: 10 }, (_, i) => `A${String(i + 1).padStart(2, "0")}`),
      ...Array.from({ length: 9 }, (_, i) => `S0${i + 1}`),
    ];
    for (const id of ids) expect(doc, `${id} missing from docs/reliability.md`).toContain(`| ${id} |`);
  });
});
