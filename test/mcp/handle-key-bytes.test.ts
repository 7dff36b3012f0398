// A handleKey given as bytes is the key as it was configured: the caller may wipe or reuse its buffer, and
// the server goes on signing and verifying with the configured key, also once its tool list is made again.
import "../fixtures/store/register.js";
import { describe, expect, it } from "vitest";
import { defineTool, type ToolSource } from "entity-tools";
import { CustomerSearchTools } from "../fixtures/store/customer-search-tools.js";
import { Customer } from "../fixtures/store/customer.js";
import { modernEndpoint } from "../support/mcp-v2.js";

const search = new CustomerSearchTools();
const text = (result: Record<string, unknown>) => (result.content as { text: string }[])[0]!.text;
const handleIn = (result: Record<string, unknown>) => /"(Customer:[^"]+)"/.exec(text(result))![1]!;

describe("a handleKey given as bytes", () => {
  it("is copied when configured: after the caller wipes its buffer, earlier handles verify and new ones are signed by the configured key", async () => {
    const key = Buffer.from("the shop's handle key, 32 bytes.");
    const tools: ToolSource[] = [search];
    const client = await modernEndpoint({
      name: "shop",
      version: "1.0.0",
      tools,
      classes: [Customer],
      handleKey: key,
      resolveProvider: (_cls, id) => search.findCustomers("").find((c) => c.id === id),
    }).connect();
    const john = { name: "searchCustomer", arguments: { name: "John Smith" } };
    const minted = handleIn(await client.callTool(john));

    key.fill(0); // the caller wipes its copy of the secret
    tools.push(defineTool({ name: "late", description: "Added later", execute: () => "late" })); // list made again
    expect((await client.listTools(undefined, { cacheMode: "bypass" })).tools.map((t) => t.name)).toContain(
      "late",
    );

    const spend = await client.callTool({ name: "customer_getAverageSpend", arguments: { handle: minted } });
    expect([spend.isError, text(spend)]).toEqual([false, '{"amount":46.83,"currency":"USD"}']);
    expect(handleIn(await client.callTool(john))).toBe(minted);
  });
});
