// The in-process MCP server on a stand-in for the SDK's server object: what Claude Code would be
// offered, how its calls come back under our names, and when `offer` says the tools were listed again.
import { describe, expect, it } from "vitest";
import { defineTool } from "entity-tools";
import type { ClaudeAgentSdk } from "../../src/claude/claude-sdk.js";
import { ClaudeToolServer, type ServedCall } from "../../src/claude/claude-tool-server.js";

type Handler = (request: unknown, extra: unknown) => unknown;

function fakeSdk() {
  const handlers = new Map<string, Handler>();
  const announced: number[] = [];
  const server = {
    registerCapabilities: () => {},
    setRequestHandler: (schema: string, handler: Handler) => handlers.set(schema, handler),
    sendToolListChanged: async () => void announced.push(Date.now()),
  };
  const sdk = {
    createSdkMcpServer: (options: { name: string }) => ({
      type: "sdk",
      name: options.name,
      instance: { server },
    }),
    requests: { listTools: "tools/list", callTool: "tools/call" },
  } as unknown as ClaudeAgentSdk;
  const list = async () =>
    ((await handlers.get("tools/list")!({}, {})) as { tools: { name: string }[] }).tools.map((t) => t.name);
  const call = (name: string, meta?: object) =>
    handlers.get("tools/call")!({ params: { name, arguments: { a: 1 }, _meta: meta } }, { requestId: 7 });
  return { sdk, announced, list, call };
}

const tool = (name: string) => defineTool({ name, description: name, execute: () => "ok" });
const LONG = "customer_3f2c6b1e-7a4d-4c1b-9e2f-5d6a7b8c9d0e_getAverageSpend";

describe("ClaudeToolServer", () => {
  it("offers our tools, a name too long for mcp__tools__ shortened, and hands calls over under our names", async () => {
    const fake = fakeSdk();
    const calls: ServedCall[] = [];
    new ClaudeToolServer(fake.sdk, "tools", [tool("search"), tool(LONG)], async (c) => {
      calls.push(c);
      return { text: "done", isError: false };
    });
    const offered = await fake.list();
    expect(offered[0]).toBe("search");
    expect(`mcp__tools__${offered[1]!}`.length).toBeLessThanOrEqual(64);
    expect(offered[1]).toMatch(/_getAverageSpend$/);
    expect(await fake.call(offered[1]!, { "claudecode/toolUseId": "toolu_1" })).toEqual({
      content: [{ type: "text", text: "done" }],
      isError: false,
    });
    await fake.call("search");
    expect(calls).toEqual([
      { toolName: LONG, input: { a: 1 }, toolCallId: "toolu_1" },
      { toolName: "search", input: { a: 1 }, toolCallId: "mcp-7" },
    ]);
  });

  it("offer resolves true once a tools/list with the new set has been answered, false when none comes in time", async () => {
    const fake = fakeSdk();
    const server = new ClaudeToolServer(fake.sdk, "tools", [tool("search")], async () => ({
      text: "",
      isError: false,
    }));
    const listed = server.offer([tool("search"), tool("found")], 10_000);
    await Promise.resolve();
    expect(fake.announced).toHaveLength(1);
    expect(await fake.list()).toEqual(["search", "found"]);
    expect(await listed).toBe(true);

    expect(await server.offer([tool("search")], 20)).toBe(false); // nobody listed again
    expect(fake.announced).toHaveLength(2);
  });
});
