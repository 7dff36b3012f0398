// The MCP server with two bounded contexts' `Customer` (test/fixtures/contexts, registered as crm.Customer
// and billing.Customer): one tool list with both classes' handle tools, each handle re-bound on a later
// request through resolveProvider by its registered name, and a handle of one refused by the other's tools.
// Two classes no module told apart: a 2025-11-25 session binds the first its calls find, not the second.
import "../fixtures/contexts/register.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { beforeEach, describe, expect, it } from "vitest";
import { LlmTool, ToolProvider } from "entity-tools";
import { createMcpServer } from "entity-tools/mcp";
import { Customer as BillingCustomer } from "../fixtures/contexts/billing/customer.js";
import { Customer as CrmCustomer } from "../fixtures/contexts/crm/customer.js";
import { Directory } from "../fixtures/contexts/directory.js";
import { ran } from "../fixtures/contexts/ran.js";
import { modernEndpoint } from "../support/mcp-v2.js";

const resolved: string[] = [];
const endpoint = modernEndpoint({
  name: "contexts",
  version: "1.0.0",
  tools: [new Directory()],
  discovery: true,
  classes: [CrmCustomer, BillingCustomer],
  handleKey: "test key of the contexts",
  resolveProvider: (providerClass, id) => {
    resolved.push(providerClass);
    if (providerClass === "crm.Customer") return new CrmCustomer(String(id));
    if (providerClass === "billing.Customer") return new BillingCustomer(String(id));
    return undefined;
  },
});
const text = (result: Record<string, unknown>) => (result.content as { text: string }[])[0]!.text;
const handleOf = (found: Record<string, unknown>, cls: string) =>
  new RegExp(`"(${cls.replace(".", "\\.")}:c1~[\\w-]{22})"`).exec(text(found))![1]!;

beforeEach(() => {
  ran.length = 0;
  resolved.length = 0;
});

describe("createMcpServer with two classes named Customer (2026-07-28)", () => {
  it("lists both classes' handle tools; each handle runs its own class's method on a later request", async () => {
    const client = await endpoint.connect();
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual([
      "find",
      "crm_close",
      "crm_moveTo",
      "billing_close",
      "billing_invoiceTo",
    ]);
    const found = await client.callTool({ name: "find", arguments: { id: "c1" } });
    const billing = await (
      await endpoint.connect()
    ).callTool({
      name: "billing_invoiceTo",
      arguments: { handle: handleOf(found, "billing.Customer"), address: { street: "Main St" } },
    });
    expect([billing.isError, text(billing)]).toEqual([
      false,
      "billing c1 invoices to Main St (a billing Address)",
    ]);
    expect(resolved).toEqual(["billing.Customer"]);
    expect(ran).toEqual(["billing invoice c1"]);
  });

  it("a handle of one class is refused by the other's tools, and the CRM close never runs without approval", async () => {
    const client = await endpoint.connect();
    const found = await client.callTool({ name: "find", arguments: { id: "c1" } });
    const crossed = await client.callTool({
      name: "billing_close",
      arguments: { handle: handleOf(found, "crm.Customer") },
    });
    expect(crossed.isError).toBe(true);
    expect(text(crossed)).toContain(
      "is of class crm.Customer, and this tool takes handles of class billing.Customer",
    );
    const close = await client.callTool({
      name: "crm_close",
      arguments: { handle: handleOf(found, "crm.Customer") },
    });
    expect(close.isError).toBe(true);
    expect(text(close)).toMatch(/^Not run: "crm_close" needs a person's approval/);
    expect(ran).toEqual([]);
  });
});

describe("createMcpServer with two classes named Customer (2025-11-25 in memory, per-session discovery)", () => {
  it("binds both customers' tools under their own names, each running its own class's method", async () => {
    const server = createMcpServer({
      name: "contexts",
      version: "1.0.0",
      tools: [new Directory()],
      discovery: true,
    });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: "test", version: "1.0.0" });
    await client.connect(clientSide);
    await client.callTool({ name: "find", arguments: { id: "c1" } });
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(["crm_c1_close", "crm_c1_moveTo", "billing_c1_close"]));
    const closed = await client.callTool({ name: "billing_c1_close", arguments: {} });
    expect(text(closed)).toBe("billing c1 closed");
    expect(ran).toEqual(["billing close c1"]);
  });
});

// Two classes no module told apart: both are named Customer.
const unregistered = (prefix: string) => {
  @ToolProvider({ prefix })
  class Customer {
    constructor(public id: string) {}
    @LlmTool("Close the account")
    close(): string {
      return `${prefix} closed`;
    }
  }
  return Customer;
};
const [Sales, Support] = [unregistered("sales"), unregistered("support")];
const noParameters = { type: "object", properties: {} } as const;
class Desks {
  @LlmTool({ description: "Find the sales customer", parameters: noParameters })
  findSales(): object {
    return new Sales("c1");
  }
  @LlmTool({ description: "Find the support customer", parameters: noParameters })
  findSupport(): object {
    return new Support("c1");
  }
}

describe("createMcpServer with two unregistered classes named Customer (2025-11-25 session)", () => {
  it("the second class a session's calls find gets no tools, and the client reads why", async () => {
    const server = createMcpServer({
      name: "desks",
      version: "1.0.0",
      tools: [new Desks()],
      discovery: true,
    });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: "test", version: "1.0.0" });
    await client.connect(clientSide);
    await client.callTool({ name: "findSales", arguments: {} });
    const second = await client.callTool({ name: "findSupport", arguments: {} });
    expect(JSON.stringify(second.content)).toContain(
      'another @ToolProvider class is also named Customer (prefixes \\"sales\\" and \\"support\\")',
    );
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toContain("sales_c1_close");
    expect(names).not.toContain("support_c1_close");
  });
});
