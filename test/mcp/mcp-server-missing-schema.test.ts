// G26 (docs/reliability.md, "declaring tools"): with discovery, a `@ToolProvider` class whose tool has
// parameters and no schema is refused when the server is made, as a run with discovery refuses it at its
// start (G25's check: one rule for both), instead of failing the call that discovers it. Its own file: the
// check reads every provider class defined in the process, and this one would be the first problem of any
// other test's server with discovery.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { expect, it } from "vitest";
import { LlmTool, MissingToolSchemaError, PromptRunner, ToolProvider } from "entity-tools";
import { createMcpServer } from "entity-tools/mcp";
import { call, mockModel, text } from "../support/mock-model.js";

it("G26 with discovery, a provider class with no schema for a tool with parameters is refused when the server is made, with the run's error (was: the call that found it failed)", async () => {
  class Desk {
    @LlmTool("Open the ledger")
    open(): Ledger {
      return new Ledger("l1");
    }
  }
  @ToolProvider()
  class Ledger {
    constructor(public id: string) {}
    @LlmTool("Post an amount")
    post(amount: number): string {
      return `posted ${amount}`;
    }
  }
  const options = { name: "books", version: "1.0.0", tools: [new Desk()] };
  const refused = (() => {
    try {
      createMcpServer({ ...options, discovery: true });
    } catch (error) {
      return error;
    }
  })();
  expect(MissingToolSchemaError.isInstance(refused)).toBe(true);
  expect((refused as Error).message).toMatch(/^No input schema for Ledger\.post: generate schemas with/);
  const model = mockModel(call("open"), text("never"));
  const run = new PromptRunner({ model }).withTools(new Desk()).withToolProviderDiscovery();
  expect(await run.run("q").catch((e: unknown) => e)).toEqual(refused);
  expect(model.doGenerateCalls).toHaveLength(0);

  // Without discovery no call reaches the class: the server serves, as a run without discovery runs.
  const server = createMcpServer(options);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: "test", version: "1.0.0" });
  await client.connect(clientSide);
  expect((await client.callTool({ name: "open", arguments: {} })).isError).toBe(false);
});
