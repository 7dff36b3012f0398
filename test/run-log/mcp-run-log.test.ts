// createMcpServer({ runLog }): the calls a 2025-11-25 session serves, in a run log the viewer reads, each a
// step (approvals asked through elicitation and the person's answers with it); a server that is only listed
// writes nothing; what a failed call's server threw is its record's cause, with recordContent only.
import "../fixtures/store/register.js";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, expect, it } from "vitest";
import { defineTool, readRunLog, runView, type RunView } from "entity-tools";
import { createMcpServer } from "entity-tools/mcp";
import { modernEndpoint } from "../support/mcp-v2.js";
import { CustomerSearchTools } from "../fixtures/store/customer-search-tools.js";

const dir = mkdtempSync(path.join(tmpdir(), "mcp-run-log-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A refund that needs a person's approval. */
const refund = defineTool({
  name: "refund",
  description: "Refund an order",
  inputSchema: {
    type: "object",
    properties: { orderId: { type: "string" } },
    required: ["orderId"],
    additionalProperties: false,
  },
  needsApproval: true,
  execute: (input: { orderId: string }) => `refunded ${input.orderId}`,
});

/** A 2025-11-25 session logging to `runLog`; with `approve`, its person answers each approval question. */
async function connected(runLog: string, approve?: (message: string) => boolean) {
  const server = createMcpServer({
    name: "shop",
    version: "1.0.0",
    tools: [new CustomerSearchTools(), refund],
    discovery: true,
    runLog,
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client(
    { name: "test", version: "1.0.0" },
    { capabilities: approve ? { elicitation: {} } : {} },
  );
  if (approve)
    client.setRequestHandler(ElicitRequestSchema, (request) =>
      approve(request.params.message)
        ? { action: "accept", content: { approve: true } }
        : { action: "decline" },
    );
  await client.connect(clientSide);
  return client;
}

/** The run logs of `folder`, read for viewing. */
function views(folder: string): RunView[] {
  return readdirSync(folder)
    .filter((f) => f.endsWith(".jsonl"))
    .map((f) => runView(readRunLog(readFileSync(path.join(folder, f), "utf8"))));
}

/** A step as the viewer shows it: its approvals and its calls. */
function shown(view: RunView) {
  return view.steps.map((s) => [
    s.step,
    ...s.other.map((r) =>
      r.type === "approval-asked"
        ? `asked ${r.tool} ${JSON.stringify(r.input)}`
        : r.type === "approval-decided"
          ? `${r.approved ? "approved" : `denied: ${r.reason}`} ${r.tool}`
          : r.type,
    ),
    ...s.calls.map((c) => `${c.ok ? "ran" : `failed (${c.reason})`} ${c.tool}: ${c.result}`),
  ]);
}

it("each call of a session is a step with the tools listed then, the discovery it caused and its result", async () => {
  const sessionDir = path.join(dir, "calls");
  const client = await connected(sessionDir);
  await client.callTool({ name: "searchCustomer", arguments: { name: "John Smith" } });
  await client.callTool({ name: "customer_c123_getAverageSpend", arguments: {} });
  const [file] = readdirSync(sessionDir).filter((f) => f.endsWith(".jsonl"));
  const view = runView(readRunLog(readFileSync(path.join(sessionDir, file!), "utf8")));
  expect(view.header?.kind).toBe("mcp");
  expect(view.steps.map((s) => [s.step, s.calls.map((c) => [c.tool, c.ok])])).toEqual([
    [1, [["searchCustomer", true]]],
    [2, [["customer_c123_getAverageSpend", true]]],
  ]);
  expect(view.toolsAt(1)).toEqual(["searchCustomer", "findCustomers", "refund"]);
  expect(view.steps[1]!.added!.map((c) => [c.tool, c.cause?.byTool, c.cause?.provider?.id])).toEqual([
    ["customer_c123_getAverageSpend", "searchCustomer", "c123"],
    ["customer_c123_recentOrders", "searchCustomer", "c123"],
  ]);
  expect(view.steps[0]!.calls[0]!.result).toContain("John Smith");
  expect(view.end).toBeUndefined(); // the session is still open
  await client.close();
  // A closed session's file ends: the viewer shows it completed, not still going.
  const closed = runView(readRunLog(readFileSync(path.join(sessionDir, file!), "utf8")));
  expect(closed.end).toMatchObject({ status: "completed", totalIterations: 2, steps: 2 });
});

it("a call whose strategy threw: its record has what was thrown (cause), the original's type too, with recordContent only; the client read only that it failed", async () => {
  const logged = async (recordContent: boolean) => {
    const folder = path.join(dir, `strategy-threw-${recordContent}`);
    const server = createMcpServer({
      name: "shop",
      version: "1.0.0",
      tools: [new CustomerSearchTools()],
      injectionStrategies: [
        {
          evaluateToolResult: () => {
            throw new TypeError("key sk-live-123 was refused");
          },
        },
      ],
      runLog: { dir: folder, recordContent },
    });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: "test", version: "1.0.0" });
    await client.connect(clientSide);
    const result = await client.callTool({ name: "findCustomers", arguments: { text: "Khan" } });
    expect(JSON.stringify(result)).not.toContain("sk-live-123");
    await client.close();
    const [file] = readdirSync(folder).filter((f) => f.endsWith(".jsonl"));
    return runView(readRunLog(readFileSync(path.join(folder, file!), "utf8"))).steps[0]!.calls[0]!;
  };
  expect(await logged(true)).toMatchObject({
    ok: false,
    reason: "threw",
    result: 'The call of "findCustomers" failed in the server',
    // The wrapper's message quotes the original's: the original is named after it, not said twice.
    cause:
      'StrategyError: An injection strategy failed after "findCustomers": key sk-live-123 was refused; caused by TypeError',
  });
  const bare = await logged(false);
  expect([bare.ok, bare.reason, "cause" in bare, "result" in bare]).toEqual([false, "threw", false, false]);
});

it("a session that only lists tools writes no file", async () => {
  const listOnly = path.join(dir, "list-only");
  const client = await connected(listOnly);
  await client.listTools();
  expect(readdirSync(listOnly)).toEqual([]);
  await client.close();
});

it("an approval asked through elicitation and the person's answer are logged, each call a step", async () => {
  const folder = path.join(dir, "approvals");
  const client = await connected(folder, (message) => message.includes("o-1"));
  await client.callTool({ name: "refund", arguments: { orderId: "o-1" } });
  await client.callTool({ name: "refund", arguments: { orderId: "o-2" } });
  await client.close();
  const refused = await connected(folder); // its client cannot ask: refused without a question
  await refused.callTool({ name: "refund", arguments: { orderId: "o-3" } });
  await refused.close();
  const [first, second] = views(folder).sort((a, b) => a.steps.length - b.steps.length);
  // The SDK asks the client, then serves the call again with the answer: the question ends one step, the
  // answer and the call are the next.
  expect(shown(second!)).toEqual([
    [1, 'asked refund {"orderId":"o-1"}'],
    [2, "approved refund", "ran refund: refunded o-1"],
    [3, 'asked refund {"orderId":"o-2"}'],
    [
      4,
      "denied: the person declined refund",
      'failed (denied) refund: Not run: a person denied this call of "refund".',
    ],
  ]);
  expect(shown(first!)).toEqual([
    [1, expect.stringMatching(/^failed \(denied\) refund: Not run: "refund" needs a person's approval/)],
  ]);
  // Every question of the first session was answered: its file ends completed, not waiting for a person.
  expect(second!.end?.status).toBe("completed");
});

it("on 2026-07-28 the question and the answer come in two requests, each a server and a file of its own", async () => {
  const folder = path.join(dir, "approvals-2026");
  const client = await modernEndpoint({
    name: "shop",
    version: "1.0.0",
    tools: [refund],
    runLog: folder,
  }).connect({
    elicitation: true,
  });
  client.setRequestHandler("elicitation/create", () => ({ action: "accept", content: { approve: true } }));
  const result = await client.callTool({ name: "refund", arguments: { orderId: "o-1" } });
  expect(result.isError).toBeFalsy();
  expect(views(folder).map(shown).sort()).toEqual([
    [[1, "approved refund", "ran refund: refunded o-1"]],
    [[1, 'asked refund {"orderId":"o-1"}']],
  ]);
  // Each request's server closes with its request: the question's file waits for a person.
  const ends = views(folder).map((v) => [shown(v)[0]![1], v.end?.status]);
  expect(ends.sort()).toEqual([
    ["approved refund", "completed"],
    ['asked refund {"orderId":"o-1"}', "awaiting-approval"],
  ]);
  await client.close();
});

it("a session closed while a call runs: the call's record (cancelled) comes before the file's end, which is last", async () => {
  const folder = path.join(dir, "closed-mid-call");
  let started!: () => void;
  const running = new Promise<void>((resolve) => (started = resolve));
  const waiting = defineTool({
    name: "waiting",
    description: "Runs until its call is stopped",
    execute: (_input: Record<string, never>, { signal }) => {
      started();
      return new Promise<never>((_resolve, reject) =>
        signal.addEventListener("abort", () => reject(signal.reason)),
      );
    },
  });
  const server = createMcpServer({ name: "shop", version: "1.0.0", tools: [waiting], runLog: folder });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: "test", version: "1.0.0" });
  await client.connect(clientSide);
  const pending = client.callTool({ name: "waiting", arguments: {} }).catch((e: unknown) => String(e));
  await running;
  await client.close();
  expect(await pending).toMatch(/Connection closed/);
  const [file] = readdirSync(folder).filter((f) => f.endsWith(".jsonl"));
  const records = () => readFileSync(path.join(folder, file!), "utf8").trim().split("\n");
  // The cancelled call ends a few turns of the event loop after the close; the file waits for it.
  while (records().length < 4) await new Promise((resolve) => setImmediate(resolve));
  expect(records().map((line) => (JSON.parse(line) as { type: string }).type)).toEqual([
    "run",
    "step",
    "call",
    "end",
  ]);
  const view = runView(readRunLog(records().join("\n")));
  expect(view.steps[0]!.calls.map((c) => [c.tool, c.ok, c.reason])).toEqual([
    ["waiting", false, "cancelled"],
  ]);
  expect(view.end).toMatchObject({ status: "completed", steps: 1 });
});
