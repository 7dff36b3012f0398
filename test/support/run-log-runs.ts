// Runs that write a run log, shared by the log's own tests and the viewer's: a discovery run with pricing,
// a chart picture and an approval (paused, then resumed with the decision), its next conversation turn, and
// a long run with a step that discovers thousands of providers.
import "../../examples/register-schemas.js";
import { deflateSync } from "node:zlib";
import { defineTool, toolContent, toolImage, type RunLogOptions, type ToolLoopEvent } from "entity-tools";
import { FakePromptRunner } from "entity-tools/testing";
import { CustomerSearchTools } from "../../examples/domain/customer-search-tools.js";
import { issuedCredit as issued, issueStoreCredit } from "../../examples/web-chat/chat-agent.js";

export { issued };

/** List prices (USD per million tokens) the runs are priced at. */
export const PRICES = { input: 0.25, cachedInput: 0.025, output: 2 };

/** A 96×48 PNG bar chart (six bars of monthly spend), made here so the test needs no image file. */
export function spendChartPng(): Buffer {
  const width = 96;
  const height = 48;
  const bars = [20, 31, 26, 38, 29, 44];
  const rows: Buffer[] = [];
  for (let y = 0; y < height; y++) {
    const row = Buffer.alloc(1 + width * 3, 255); // filter byte 0 + white pixels
    row[0] = 0;
    for (let x = 0; x < width; x++) {
      const bar = Math.floor(x / 16);
      const inBar = x % 16 >= 3 && x % 16 <= 12 && height - y <= bars[bar]!;
      if (inBar) row.set([37, 99, 235], 1 + x * 3);
    }
    rows.push(row);
  }
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
  return Buffer.concat([
    Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(Buffer.concat(rows))),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

function crc32(data: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of data) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

const spendChart = defineTool<{ customerId: string }>({
  name: "spendChart",
  description: "A chart of a customer's monthly spend",
  inputSchema: { type: "object", properties: { customerId: { type: "string" } }, required: ["customerId"] },
  execute: () => toolContent("Monthly spend, last six months:", toolImage(spendChartPng(), "image/png")),
});

const usage = (inputTokens: number, cachedInputTokens: number, outputTokens: number) => ({
  inputTokens,
  cachedInputTokens,
  outputTokens,
});

/** A runner of the customer tools, priced and logged into `dir`, and its scripted model. */
export function customerRunner(
  dir: string,
  options?: RunLogOptions,
  observe?: (event: ToolLoopEvent) => void,
) {
  const fake = new FakePromptRunner();
  let runner = fake
    .withTools(new CustomerSearchTools(), issueStoreCredit, spendChart)
    .withToolProviderDiscovery()
    .withPricing(PRICES)
    .withRunLog(dir, options);
  if (observe) runner = runner.withObserver(observe);
  return { fake, runner };
}

/**
 * Turn 1 of a conversation: searchCustomer finds John Smith (c123), whose tools are then called with the
 * chart, and a store credit waits for approval; the resume approves it and the run answers. Then turn 2
 * (`continueFrom`) calls the discovered tool again. Three files.
 */
export async function discoveryConversation(dir: string, options?: RunLogOptions) {
  const { fake, runner } = customerRunner(dir, options);
  fake
    .respondWith("search", () => ({
      toolCalls: [{ toolName: "searchCustomer", input: { name: "John Smith" } }],
      usage: usage(1200, 0, 30),
    }))
    .respondWith("spend and chart", () => ({
      toolCalls: [
        { toolName: "customer_c123_getAverageSpend", input: {} },
        { toolName: "spendChart", input: { customerId: "c123" } },
      ],
      usage: usage(1500, 0, 40),
    }))
    .respondWith("credit", () => ({
      toolCalls: [{ toolName: "issueStoreCredit", input: { customerId: "c123", amount: 10 } }],
      usage: usage(1900, 1500, 25),
    }))
    .respondWith("answer", () => ({
      text: "John Smith spends 46.83 USD a month; 10 USD of store credit issued.",
      usage: usage(2000, 1900, 20),
    }))
    .respondWith("turn 2", () => ({
      toolCalls: [{ toolName: "customer_c123_getAverageSpend", input: {} }],
      usage: usage(2100, 2000, 15),
    }))
    .respondWith("turn 2 answer", () => ({ text: "Still 46.83 USD a month.", usage: usage(2200, 2100, 12) }));
  const paused = await runner.run("What does John Smith spend? Give him 10 USD of store credit.");
  const approvalId = paused.pendingApprovals[0]!.approvalId;
  const resumed = await runner.resume(paused.snapshot, { approvals: { [approvalId]: { approved: true } } });
  const next = await runner.run("And his spend now?", { continueFrom: resumed.snapshot });
  const runs = fake.runs.map((steps) => steps.map((s) => s.step));
  return { paused, resumed, next, approvalId, runs };
}

/** Handles mode: findCustomers finds two Smiths, and the model asks for John's spend through his handle. */
export async function handlesRun(dir: string) {
  const handles = new Map<string, string>();
  const fake = new FakePromptRunner();
  const runner = fake
    .withTools(new CustomerSearchTools())
    .withToolProviderDiscovery({ binding: "handles" })
    .withRunLog(dir)
    .withObserver((e) => {
      if (e.type === "ToolProviderDiscovered" && e.handle) handles.set(e.instanceId, e.handle);
    });
  fake
    .callTool("findCustomers", { text: "Smith" })
    .respondWith("spend", () => ({
      toolCalls: [{ toolName: "customer_getAverageSpend", input: { handle: handles.get("c123") } }],
    }))
    .respondWithText("46.83 USD");
  return runner.run("What does John Smith spend?");
}

/** A budget of two injected tools: finding Jane after John pushes John's tools out. */
export async function budgetRun(dir: string) {
  const fake = new FakePromptRunner();
  const runner = fake
    .withTools(new CustomerSearchTools())
    .withToolProviderDiscovery({ maxInjectedTools: 2 })
    .withRunLog(dir);
  fake
    .callTool("searchCustomer", { name: "John Smith" })
    .callTool("searchCustomer", { name: "Jane Smith" })
    .respondWithText("Found both.");
  return runner.run("Find John, then Jane");
}
