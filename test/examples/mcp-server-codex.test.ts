// The real `codex` binary (the pinned @openai/codex dev dependency) as an MCP client of the example
// server, configured in its config.toml, its model a Responses API mock on 127.0.0.1.
import { execFile } from "node:child_process";
import { appendFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import { codexHomeFor, functionOutputs } from "../support/codex-home.js";
import { startResponsesMock, type FixedReply, type ResponsesMock } from "../support/responses-sse-mock.js";

type Body = Record<string, unknown>;
/** Codex offers an MCP server's tools as the namespace `mcp__<server>`. */
const shopTools = (body: Body) =>
  (
    (body.tools as { name: string; tools?: { name: string }[] }[]).find((t) => t.name === "mcp__shop")
      ?.tools ?? []
  ).map((t) => t.name);
const called = (body: Body) =>
  ((body.input as { type?: string; name?: string }[] | undefined) ?? [])
    .filter((i) => i.type === "function_call")
    .map((i) => i.name);

let mock: ResponsesMock | undefined;
afterEach(async () => mock?.close());

/** Runs `codex exec` once against the mock with our server configured; returns what its model was sent. */
async function codexExec(reply: (body: Body) => FixedReply, serverArgs: string[] = []) {
  mock = await startResponsesMock(Array.from({ length: 10 }, () => reply));
  const home = codexHomeFor(mock.baseURL);
  const args = ["--import", "tsx", path.resolve("examples/mcp-server/server.ts"), ...serverArgs];
  appendFileSync(
    path.join(home, "config.toml"),
    [
      "[mcp_servers.shop]",
      `command = ${JSON.stringify(process.execPath)}`,
      `args = ${JSON.stringify(args)}`,
      `cwd = ${JSON.stringify(process.cwd())}`,
      "required = true", // wait for the server before the first turn (else its tools may be missing)
      "startup_timeout_sec = 30",
      'default_tools_approval_mode = "approve"', // MCP calls otherwise need an approval `never` refuses
      "",
    ].join("\n"),
  );
  const codex = path.resolve("node_modules/@openai/codex/bin/codex.js");
  const running = promisify(execFile)(
    process.execPath,
    [codex, "exec", "--skip-git-repo-check", "--disable", "plugins", "What does John Smith spend?"],
    { env: { ...process.env, CODEX_HOME: home }, timeout: 60_000 },
  );
  running.child.stdin?.end();
  await running;
  return mock.requests;
}

describe("the codex CLI as an MCP client of examples/mcp-server", () => {
  it("calls searchCustomer through MCP; it does not re-list on list_changed, so the discovered tool stays unseen", async () => {
    const requests = await codexExec((body) => {
      if (shopTools(body).includes("customer_c123_getAverageSpend")) return { message: "saw the new tool" };
      return called(body).includes("searchCustomer")
        ? { message: "done" }
        : {
            functionCalls: [
              { name: "searchCustomer", namespace: "mcp__shop", arguments: { name: "John Smith" } },
            ],
          };
    });
    expect(shopTools(requests[0]!)).toEqual(["findCustomers", "searchCustomer"]);
    expect(functionOutputs(requests[1]!).join()).toContain(
      String.raw`{\"id\":\"c123\",\"name\":\"John Smith\"`,
    );
    // Recorded behaviour of codex 0.169: the server announced list_changed, Codex did not list again.
    expect(shopTools(requests[1]!)).toEqual(["findCustomers", "searchCustomer"]);
  }, 90_000);

  it("with the server's --dispatch fallback, Codex reaches the discovered tool through call_discovered_tool", async () => {
    const requests = await codexExec(
      (body) => {
        const done = called(body);
        if (!done.includes("searchCustomer"))
          return {
            functionCalls: [
              { name: "searchCustomer", namespace: "mcp__shop", arguments: { name: "John Smith" } },
            ],
          };
        if (!done.includes("call_discovered_tool"))
          return {
            functionCalls: [
              {
                name: "call_discovered_tool",
                namespace: "mcp__shop",
                arguments: { tool_name: "customer_c123_getAverageSpend", arguments: {} },
              },
            ],
          };
        return { message: "46.83 USD a month" };
      },
      ["--dispatch"],
    );
    expect(shopTools(requests[0]!)).toEqual(["call_discovered_tool", "findCustomers", "searchCustomer"]);
    const outputs = functionOutputs(requests.at(-1)!).join("\n");
    expect(outputs).toContain("New tools are available through call_discovered_tool");
    expect(outputs).toContain("customer_c123_getAverageSpend");
    expect(outputs).toContain(String.raw`{\"amount\":46.83,\"currency\":\"USD\"}`);
  }, 90_000);
});
