// G25 (docs/reliability.md, "declaring tools"): an explicit `@LlmTool({ parameters })` schema that is not
// valid JSON Schema is refused when the server is made, with the error a run throws at its start, instead
// of every call of the tool failing. A valid one is listed and called as before (official SDK client, in
// memory).
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { describe, expect, it } from "vitest";
import {
  DecoratorMisuseError,
  LlmTool,
  PromptRunner,
  ToolProvider,
  type ParametersSchema,
} from "entity-tools";
import { createMcpServer, type McpServerOptions } from "entity-tools/mcp";
import { call, mockModel, text } from "../support/mock-model.js";

const INVALID: ParametersSchema = { type: "object", properties: { q: { type: "strin" } } };
const PROBLEM =
  "parameters is not a valid JSON Schema (schema is invalid: data/properties/q/type must be equal to one of the allowed values, data/properties/q/type must be array, data/properties/q/type must match a schema in anyOf)";

/** What `createMcpServer(options)` threw, or `undefined` when it made the server. */
function makingFails(options: Omit<McpServerOptions, "name" | "version">): unknown {
  try {
    createMcpServer({ name: "shop", version: "1.0.0", ...options });
    return undefined;
  } catch (error) {
    return error;
  }
}

/** What a run of these tools threw before its first model call (and that it made none). */
async function runFails(tools: object, discovery: boolean): Promise<unknown> {
  const model = mockModel(call("find", { q: "tea" }), text("never"));
  const runner = new PromptRunner({ model }).withTools(tools);
  const failed = await (discovery ? runner.withToolProviderDiscovery() : runner)
    .run("q")
    .catch((e: unknown) => e);
  expect(model.doGenerateCalls).toHaveLength(0);
  return failed;
}

describe("createMcpServer with explicit @LlmTool({ parameters }) schemas", () => {
  it("G25 a configured tool whose schema is not valid JSON Schema is refused when the server is made, as a run refuses it (was: every call failed)", async () => {
    class Search {
      @LlmTool({ description: "Search", parameters: INVALID })
      find(q: string): string {
        return q;
      }
    }
    const refused = makingFails({ tools: [new Search()] });
    expect(refused).toEqual(new DecoratorMisuseError(`@LlmTool on Search.find: ${PROBLEM}`));
    expect(DecoratorMisuseError.isInstance(refused)).toBe(true);
    expect(refused).toEqual(await runFails(new Search(), false));
  });

  it("G25 with discovery, a provider class a call could find with such a schema is refused when the server is made, as a run with discovery refuses it at its start", async () => {
    @ToolProvider({ prefix: "shelf" })
    class Shelf {
      constructor(public id: string) {}
      @LlmTool({ description: "Search the shelf", parameters: INVALID })
      find(q: string): string {
        return q;
      }
    }
    class Finder {
      @LlmTool("Find a shelf")
      shelf(): Shelf {
        return new Shelf("s1");
      }
    }
    const expected = new DecoratorMisuseError(`@LlmTool on Shelf.find: ${PROBLEM}`);
    expect(makingFails({ tools: [new Finder()], discovery: true })).toEqual(expected);
    expect(await runFails(new Finder(), true)).toEqual(expected);
    // 2026-07-28's handle tools of a class given in `classes` are the server's own tools.
    expect(makingFails({ tools: [new Finder()], classes: [Shelf] })).toEqual(expected);
    // Without discovery no call can reach the class: the server is made, as a run without discovery starts.
    expect(makingFails({ tools: [new Finder()] })).toBeUndefined();
  });

  it("a server whose explicit schemas are valid is made, lists them and runs their calls", async () => {
    class Search {
      @LlmTool({
        description: "Search",
        parameters: { type: "object", properties: { q: { type: "string" } }, required: ["q"] },
      })
      find(q: string): string {
        return `found ${q}`;
      }
    }
    const server = createMcpServer({ name: "shop", version: "1.0.0", tools: [new Search()] });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: "test", version: "1.0.0" });
    await client.connect(clientSide);
    const { tools } = await client.listTools();
    expect(tools).toEqual([
      {
        name: "find",
        description: "Search",
        inputSchema: { type: "object", properties: { q: { type: "string" } }, required: ["q"] },
      },
    ]);
    expect(await client.callTool({ name: "find", arguments: { q: "tea" } })).toEqual({
      content: [{ type: "text", text: "found tea" }],
      isError: false,
    });
  });
});
