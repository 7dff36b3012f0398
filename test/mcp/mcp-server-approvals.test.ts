// A call that needs approval never runs through the MCP server without one, on either revision and through
// the dispatcher: the client is asked (2026-07-28 input_required, 2025-11-25 elicitation), or, when it
// cannot ask, the call is refused with an error result saying so.
import "../fixtures/store/register.js";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { Checking, Savings } from "../fixtures/colliding-accounts.js";
import { ApprovalRuleError, defineTool, type ToolFailedEvent } from "entity-tools";
import { createMcpServer, type McpServerOptions } from "entity-tools/mcp";
import { modernEndpoint } from "../support/mcp-v2.js";

type Answer = "none" | "accept" | "decline";
interface Caller {
  callTool(params: { name: string; arguments?: Record<string, unknown> }): Promise<Record<string, unknown>>;
  listTools(): Promise<{ tools: { name: string; annotations?: Record<string, unknown> }[] }>;
}

/** A server whose `refund` needs approval, what ran on it, and the questions its client was asked. */
function setup(extra: Partial<McpServerOptions> = {}) {
  const ran: unknown[] = [];
  const options: McpServerOptions = {
    name: "shop",
    version: "1.0.0",
    tools: [
      defineTool({
        name: "refund",
        description: "Refund an order",
        inputSchema: {
          type: "object",
          properties: { orderId: { type: "string" } },
          required: ["orderId"],
          additionalProperties: false,
        },
        needsApproval: true,
        execute: (input: { orderId: string }) => {
          ran.push(input);
          return `refunded ${input.orderId}`;
        },
      }),
      defineTool({
        name: "wipe",
        description: "Wipe a cart",
        execute: () => {
          ran.push("wipe");
          return "wiped";
        },
      }),
    ],
    ...extra,
  };
  return { ran, options };
}

const revisions: [string, (options: McpServerOptions, answer: Answer, asked: string[]) => Promise<Caller>][] =
  [
    [
      "2026-07-28 (input_required)",
      async (options, answer, asked) => {
        const client = await modernEndpoint(options).connect({ elicitation: answer !== "none" });
        if (answer !== "none")
          client.setRequestHandler("elicitation/create", (request) => {
            asked.push(request.params.message);
            return answer === "accept"
              ? { action: "accept", content: { approve: true } }
              : { action: "decline" };
          });
        return client as unknown as Caller;
      },
    ],
    [
      "2025-11-25 (elicitation)",
      async (options, answer, asked) => {
        const server = createMcpServer(options);
        const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
        await server.connect(serverSide);
        const client = new ClientV1(
          { name: "test", version: "1.0.0" },
          { capabilities: answer === "none" ? {} : { elicitation: {} } },
        );
        if (answer !== "none")
          client.setRequestHandler(ElicitRequestSchema, (request) => {
            asked.push(request.params.message);
            return answer === "accept"
              ? { action: "accept", content: { approve: true } }
              : { action: "decline" };
          });
        await client.connect(clientSide);
        return client as unknown as Caller;
      },
    ],
  ];

/** What the client reads for a call whose approval rule broke: never what the rule threw. */
const RULE_FAILED =
  "Not run: the server's approval rule failed for this call of \"wipe\". Nothing ran; the server's operator can see why.";

const text = (result: Record<string, unknown>) => (result.content as { text: string }[])[0]!.text;

describe.each(revisions)("createMcpServer approvals on %s", (_revision, connect) => {
  it("a client that cannot ask gets an error result saying approval is required, and nothing runs", async () => {
    const { ran, options } = setup();
    const client = await connect(options, "none", []);
    const result = await client.callTool({ name: "refund", arguments: { orderId: "o-1" } });
    expect(result.isError).toBe(true);
    expect(text(result)).toBe(
      'Not run: "refund" needs a person\'s approval, and this client cannot ask for one (it does not support elicitation). Call it from a client that supports elicitation, or approve it in the application.',
    );
    expect(ran).toEqual([]);
  });

  it("the client's person is asked; an approval runs the call once", async () => {
    const { ran, options } = setup();
    const asked: string[] = [];
    const client = await connect(options, "accept", asked);
    const result = await client.callTool({ name: "refund", arguments: { orderId: "o-1" } });
    expect([result.isError, text(result)]).toEqual([false, "refunded o-1"]);
    expect(asked).toEqual(['Approve this call of "refund" with {"orderId":"o-1"}?']);
    expect(ran).toEqual([{ orderId: "o-1" }]);
  });

  it("a denial is an error result the model reads, and nothing runs", async () => {
    const { ran, options } = setup();
    const client = await connect(options, "decline", []);
    const result = await client.callTool({ name: "refund", arguments: { orderId: "o-1" } });
    expect([result.isError, text(result)]).toEqual([true, 'Not run: a person denied this call of "refund".']);
    expect(ran).toEqual([]);
  });

  it("the approval predicate picks calls too", async () => {
    const { ran, options } = setup({ approval: (call) => call.toolName === "wipe" });
    const client = await connect(options, "none", []);
    const result = await client.callTool({ name: "wipe", arguments: {} });
    expect(result.isError).toBe(true);
    expect(ran).toEqual([]);
  });

  it("a call with invalid arguments gets Invalid arguments, and nobody is asked (tool or predicate)", async () => {
    const judged: unknown[] = [];
    const { ran, options } = setup({ approval: (call) => judged.push(call) > 0 });
    const asked: string[] = [];
    const client = await connect(options, "accept", asked);
    const result = await client.callTool({ name: "refund", arguments: { orderId: 7 } });
    expect([result.isError, text(result)]).toEqual([
      true,
      'Invalid arguments for "refund": field "orderId" must be string.',
    ]);
    const wipe = await client.callTool({ name: "wipe", arguments: { everything: true } });
    expect(wipe.isError).toBe(true);
    expect(text(wipe)).toMatch(/^Invalid arguments for "wipe"/);
    expect([asked, judged, ran]).toEqual([[], [], []]);
  });

  /** A server whose `approval` is `rule`, its client calling `wipe` once: what ran and what observers got. */
  async function wipeWith(rule: NonNullable<McpServerOptions["approval"]>) {
    const failures: ToolFailedEvent[] = [];
    const { ran, options } = setup({
      approval: rule,
      observers: [(e) => void (e.type === "ToolFailed" && failures.push(e))],
    });
    const client = await connect(options, "accept", []);
    const result = await client.callTool({ name: "wipe", arguments: {} });
    return { client, result, ran, failures };
  }

  it("an approval rule that throws is an isError result that does not carry the rule's message; observers get what it threw", async () => {
    const { result, ran, failures } = await wipeWith(() => {
      throw new Error("cannot reach postgres://admin:hunter2@db");
    });
    expect([result.isError, text(result)]).toEqual([true, RULE_FAILED]);
    expect(ran).toEqual([]);
    expect(failures.map((f) => [f.reason, (f.cause as Error).message])).toEqual([
      ["denied", "cannot reach postgres://admin:hunter2@db"],
    ]);
  });

  it("an approval rule that rejects, then works: the first call is refused without its message, the next one is served", async () => {
    const thrown = new Error("cannot reach postgres://admin:hunter2@db");
    let calls = 0;
    const { client, result, ran, failures } = await wipeWith(async () => {
      if (++calls === 1) throw thrown;
      return false;
    });
    expect([result.isError, text(result)]).toEqual([true, RULE_FAILED]);
    expect(failures.map((f) => f.cause)).toEqual([thrown]);
    const second = await client.callTool({ name: "wipe", arguments: {} });
    expect([second.isError, text(second)]).toEqual([false, "wiped"]);
    expect(ran).toEqual(["wipe"]);
  });

  it.each([
    ['"yes"', "yes", '"yes"'],
    ["undefined", undefined, "undefined"],
    ['a promise of "no"', Promise.resolve("no"), '"no"'],
  ])(
    "an approval rule returning %s: refused like one that throws, nothing runs; observers read what it returned",
    async (_what, answer, shown) => {
      const { result, ran, failures } = await wipeWith(() => answer as unknown as boolean);
      expect([result.isError, text(result)]).toEqual([true, RULE_FAILED]);
      expect(ran).toEqual([]);
      expect(failures).toHaveLength(1);
      const cause = failures[0]!.cause as ApprovalRuleError;
      expect(cause).toBeInstanceOf(ApprovalRuleError);
      expect([cause.rule, cause.toolName]).toEqual(["approval", "wipe"]);
      expect(cause.message).toBe(
        `The approval rule (createMcpServer's approval option) returned ${shown} for the call "${failures[0]!.toolCallId}" of "wipe", which did not run: it must return true or false (or a promise of one)`,
      );
    },
  );

  it("tools that need approval are listed as destructive", async () => {
    const { options } = setup();
    const client = await connect(options, "none", []);
    const { tools } = await client.listTools();
    expect(tools.map((t) => [t.name, t.annotations?.destructiveHint])).toEqual([
      ["refund", true],
      ["wipe", undefined],
    ]);
  });
});

describe("createMcpServer approval rules on the provider (2025-11-25)", () => {
  it("a rule on the provider's identity catches a discovered tool whose name was changed by a collision", async () => {
    const client = await revisions[1]![1](
      {
        name: "bank",
        version: "1.0.0",
        discovery: true,
        tools: [
          defineTool({
            name: "accounts",
            description: "Accounts",
            execute: () => [new Checking("42"), new Savings("42")],
          }),
        ],
        approval: (call) => call.provider?.providerClass === "Savings",
      },
      "none",
      [],
    );
    await client.callTool({ name: "accounts", arguments: {} });
    const names = (await client.listTools()).tools.map((t) => t.name).filter((n) => n.startsWith("acct_42"));
    expect(names).toEqual(["acct_42_close", expect.stringMatching(/^acct_42_[0-9a-z]{16}_close$/)]);
    expect(text(await client.callTool({ name: names[0]!, arguments: {} }))).toBe("closed checking 42");
    const savings = await client.callTool({ name: names[1]!, arguments: {} });
    expect(savings.isError).toBe(true);
    expect(text(savings)).toMatch(/needs a person's approval/);
  });
});

describe("createMcpServer approvals through the dispatcher (2025-11-25)", () => {
  it("call_discovered_tool does not reach an approval-gated tool without an approval", async () => {
    const { ran, options } = setup({ dispatch: true });
    const client = await revisions[1]![1](options, "none", []);
    const result = await client.callTool({
      name: "call_discovered_tool",
      arguments: { tool_name: "refund", arguments: { orderId: "o-9" } },
    });
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/^Not run: "refund" needs a person's approval/);
    expect(ran).toEqual([]);
  });

  it("an approval given through the dispatcher runs the call", async () => {
    const { ran, options } = setup({ dispatch: true });
    const client = await revisions[1]![1](options, "accept", []);
    const result = await client.callTool({
      name: "call_discovered_tool",
      arguments: { tool_name: "refund", arguments: { orderId: "o-9" } },
    });
    expect(text(result)).toBe("refunded o-9");
    expect(ran).toEqual([{ orderId: "o-9" }]);
  });
});
