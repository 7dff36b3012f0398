// 9. An MCP server with a very large tool list: how long a run takes to reach its first model call, against
// what the SDK client alone takes to list the same pages. The server (SDK v2, in memory, no socket) lists
// N tools in pages of 5 000, each with a schema of its own (as a real server's are: no two alike), so no
// cache shared by content helps. The ratio is what the run adds on top of the listing it cannot avoid.
import { Client, InMemoryTransport, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { createMcpHandler, Server } from "@modelcontextprotocol/server";
import { defineTool, PromptRunner } from "entity-tools";
import { createMcpServer } from "entity-tools/mcp";
import { median, ms, ratio, ratioRounds, type BenchRow } from "./measure.js";
import { playing } from "./mock-model.js";

const PAGE = 5_000;
const ROUNDS = 5;

/** Tool `i`'s schema: its own field name, a bounded number, an enum, a pattern and a nested object. */
function toolSchema(i: number) {
  return {
    type: "object" as const,
    properties: {
      [`key${i}`]: { type: "string", description: `The key of record ${i}`, minLength: 1 },
      limit: { type: "integer", minimum: 1, maximum: 100 + i },
      order: { type: "string", enum: ["asc", "desc"] },
      code: { type: "string", pattern: `^[A-Z]{2}${i % 10}$` },
      filter: {
        type: "object",
        properties: { since: { type: "string", format: "date-time" }, tag: { type: "string" } },
        additionalProperties: false,
      },
    },
    required: [`key${i}`],
    additionalProperties: false,
  };
}

/** A connected v2 client of an in-memory server listing `count` tools in pages of {@link PAGE}. */
async function serverOf(count: number): Promise<Client> {
  const tools = Array.from({ length: count }, (_, i) => ({
    name: `records_${i}`,
    description: `Reads the records of kind ${i}`,
    inputSchema: toolSchema(i),
  }));
  const server = new Server({ name: "big", version: "1.0.0" }, { capabilities: { tools: {} } });
  server.setRequestHandler("tools/list", (request) => {
    const start = Number(request.params?.cursor ?? 0);
    const next = start + PAGE;
    return {
      tools: tools.slice(start, next) as never,
      ...(next < count ? { nextCursor: String(next) } : {}),
    };
  });
  server.setRequestHandler("tools/call", () => ({ content: [{ type: "text", text: "ok" }] }));
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: "bench", version: "1.0.0" });
  await client.connect(clientSide);
  return client;
}

/** The SDK client's own listing of every page (what any user of the server pays). */
async function sdkListing(client: Client): Promise<number> {
  const start = performance.now();
  let cursor: string | undefined;
  do {
    const page = await client.listTools(cursor ? { cursor } : undefined, { cacheMode: "refresh" } as never);
    cursor = page.nextCursor;
  } while (cursor);
  return performance.now() - start;
}

/** From `run()` to the run's first model call, then one call of a listed tool and the answer. */
async function firstModelCall(client: Client): Promise<number> {
  let firstCall = 0;
  const model = playing((step) => {
    if (step === 1) firstCall = performance.now();
    return step === 1
      ? { toolCalls: [{ toolName: "records_7", input: { key7: "a", limit: 3 } }] }
      : { text: "done" };
  });
  const start = performance.now();
  await new PromptRunner({ model }).withMcpClient(client).run("go");
  return firstCall - start;
}

/**
 * A client of our own MCP server (2026-07-28: one server per HTTP request, here a fetch that calls the
 * handler directly) offering `count` tools, and a call of one of them.
 */
async function ourServerCall(count: number): Promise<() => Promise<void>> {
  const tools = Array.from({ length: count }, (_, i) =>
    defineTool({
      name: `records_${i}`,
      description: `Reads the records of kind ${i}`,
      inputSchema: toolSchema(i),
      execute: () => "ok",
    }),
  );
  const handler = createMcpHandler(() => createMcpServer({ name: "ours", version: "1.0.0", tools }));
  const client = new Client(
    { name: "bench", version: "1.0.0" },
    { versionNegotiation: { mode: { pin: "2026-07-28" } } },
  );
  await client.connect(
    new StreamableHTTPClientTransport(new URL("http://mcp.test/mcp"), {
      fetch: (url, init) => handler.fetch(new Request(url, init)),
    }),
  );
  return async () => {
    await client.callTool({ name: "records_7", arguments: { key7: "a" } });
  };
}

const row = (measure: string, value: string, goal = "", met?: boolean): BenchRow => ({
  bench: "9 mcp listing",
  measure,
  value,
  goal,
  met,
});

export async function mcpListing(): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  // 100 000 tools take seconds to list: fewer rounds, warmed up by the 10 000 rows before them.
  for (const [count, rounds] of [
    [10_000, ROUNDS],
    [100_000, 2],
  ] as const) {
    const client = await serverOf(count);
    const sdk: number[] = [];
    const ours: number[] = [];
    if (count === 10_000) {
      await sdkListing(client); // warm-up of both paths
      await firstModelCall(client);
    }
    for (let round = 0; round < rounds; round++) {
      if (round % 2 === 0) {
        sdk.push(await sdkListing(client));
        ours.push(await firstModelCall(client));
      } else {
        ours.push(await firstModelCall(client));
        sdk.push(await sdkListing(client));
      }
    }
    await client.close();
    const label = count.toLocaleString("en").replace(/,/g, " ");
    const goal = count === 10_000 ? 500 : undefined;
    rows.push(
      row(
        `the SDK client's own listing of ${label} tools (${count / PAGE} pages, in memory), median of ${rounds}`,
        ms(median(sdk)),
      ),
      row(
        `a run's first model call with that server (from run()), median of ${rounds}`,
        ms(median(ours)),
        goal ? `≤ ${goal} ms` : "",
        goal ? median(ours) <= goal : undefined,
      ),
      row(
        `the same / the SDK client's listing, median (spread) of per-round ratios`,
        ratio({
          median: median(ours.map((t, i) => t / sdk[i]!)),
          min: Math.min(...ours.map((t, i) => t / sdk[i]!)),
          max: Math.max(...ours.map((t, i) => t / sdk[i]!)),
        }),
      ),
    );
  }
  // Our server makes itself anew for each request: what it does per tool then is paid at every call.
  const [large, small] = [await ourServerCall(10_000), await ourServerCall(10)];
  for (let i = 0; i < 5; i++) await Promise.all([large(), small()]); // warm-up
  const call = await ratioRounds(large, small, 21);
  rows.push(
    row(
      "createMcpServer (2026-07-28): a tools/call with 10 000 tools offered / with 10, median (spread) of 21 rounds",
      ratio(call),
    ),
  );
  return rows;
}
