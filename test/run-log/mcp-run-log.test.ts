// createMcpServer({ runLog }): the calls a 2025-11-25 session serves, in a run log the viewer reads; a
// server that is only listed writes nothing.
import "../fixtures/store/register.js";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { afterAll, expect, it } from "vitest";
import { readRunLog, runView } from "entity-tools";
import { createMcpServer } from "entity-tools/mcp";
import { CustomerSearchTools } from "../fixtures/store/customer-search-tools.js";

const dir = mkdtempSync(path.join(tmpdir(), "mcp-run-log-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function connected(runLog: string | { dir: string; recordContent: boolean }) {
  const server = createMcpServer({
    name: "shop",
    version: "1.0.0",
    tools: [new CustomerSearchTools()],
    discovery: true,
    runLog,
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: "test", version: "1.0.0" });
  await client.connect(clientSide);
  return client;
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
  expect(view.toolsAt(1)).toEqual(["searchCustomer", "findCustomers"]);
  expect(view.steps[1]!.added!.map((c) => [c.tool, c.cause?.byTool, c.cause?.provider?.id])).toEqual([
    ["customer_c123_getAverageSpend", "searchCustomer", "c123"],
    ["customer_c123_recentOrders", "searchCustomer", "c123"],
  ]);
  expect(view.steps[0]!.calls[0]!.result).toContain("John Smith");
  await client.close();
});

it("a session that only lists tools writes no file", async () => {
  const listOnly = path.join(dir, "list-only");
  const client = await connected(listOnly);
  await client.listTools();
  expect(readdirSync(listOnly)).toEqual([]);
  await client.close();
});
