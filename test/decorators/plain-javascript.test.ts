// The plain JavaScript example of docs/schemas.md, as written there: decorators called as functions.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { FakePromptRunner } from "entity-tools/testing";
import { tempDir } from "../support/temp-dir.js";

async function docExample(): Promise<{ Customer: new (id: string, orders: string[]) => object }> {
  const doc = readFileSync("docs/schemas.md", "utf8");
  const code = /<!-- plain-javascript -->\s*```js\n([\s\S]*?)\n```/.exec(doc)?.[1];
  expect(code, "the plain JavaScript example of docs/schemas.md").toBeDefined();
  const file = path.join(tempDir("plain-js-"), "customer.mjs");
  writeFileSync(file, code!);
  return (await import(pathToFileURL(file).href)) as never;
}

describe("plain JavaScript (the example in docs/schemas.md)", () => {
  it("a provider decorated by calling the decorators is discovered, called with its explicit schema, and hides its field", async () => {
    const { Customer } = await docExample();
    const fake = new FakePromptRunner();
    const find = {
      name: "findCustomer",
      description: "Find the customer",
      inputSchema: { type: "object", properties: {} },
      execute: () => new Customer("c1", ["o1", "o2", "o3"]),
    } as const;
    fake.callTool("findCustomer").callTool("customer_c1_recentOrders", { limit: 2 }).respondWithText("done");
    await fake.withTools(find).withToolProviderDiscovery().run("q");
    expect(fake.callsAt(1)[0]?.resultText).toBe('{"id":"c1"}'); // orders hidden
    expect(fake.callsAt(2)[0]?.resultText).toBe('["o2","o3"]');
  });
});
