// The real `codex` binary (the pinned @openai/codex dev dependency) as an MCP client of the example
// server, configured in its config.toml, its model a Responses API mock on 127.0.0.1.
import { execFile } from "node:child_process";
import { appendFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import {
  startOpenAiResponsesMock,
  type OpenAiResponsesMock,
  type MockReply,
  type ResponsesRequest,
} from "entity-tools/testing";
import { codexHomeFor } from "../support/codex-home.js";

/**
 * Codex offers an MCP server's tools as the namespace `mcp__<server>` (the mock puts a call to one of
 * them in its namespace, as the API does).
 */
const shopTools = ({ body }: ResponsesRequest) =>
  ((body.tools ?? []) as readonly { name?: string; tools?: { name: string }[] }[])
    .find((t) => t.name === "mcp__shop")
    ?.tools?.map((t) => t.name) ?? [];
const outputs = (request: ResponsesRequest) => request.toolResults.map((r) => r.text).join("\n");

let mock: OpenAiResponsesMock | undefined;
afterEach(async () => mock?.close());

/** Runs `codex exec` once against the mock with our server configured; returns what its model was sent. */
async function codexExec(reply: (request: ResponsesRequest) => MockReply, serverArgs: string[] = []) {
  mock = await startOpenAiResponsesMock(reply);
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
    const requests = await codexExec((request) => {
      if (request.offeredTools.includes("customer_c123_getAverageSpend")) return { text: "saw the new tool" };
      return request.calledTools.includes("searchCustomer")
        ? { text: "done" }
        : { toolCalls: [{ name: "searchCustomer", input: { name: "John Smith" } }] };
    });
    expect(shopTools(requests[0]!)).toEqual(["findCustomers", "searchCustomer"]);
    expect(outputs(requests[1]!)).toContain(`{"id":"c123","name":"John Smith"`);
    // Recorded behaviour of codex 0.169: the server announced list_changed, Codex did not list again.
    expect(shopTools(requests[1]!)).toEqual(["findCustomers", "searchCustomer"]);
  }, 90_000);

  it("with the server's --dispatch fallback, Codex reaches the discovered tool through call_discovered_tool", async () => {
    const requests = await codexExec(
      ({ calledTools }) => {
        if (!calledTools.includes("searchCustomer"))
          return { toolCalls: [{ name: "searchCustomer", input: { name: "John Smith" } }] };
        if (!calledTools.includes("call_discovered_tool"))
          return {
            toolCalls: [
              {
                name: "call_discovered_tool",
                input: { tool_name: "customer_c123_getAverageSpend", arguments: {} },
              },
            ],
          };
        return { text: "46.83 USD a month" };
      },
      ["--dispatch"],
    );
    expect(shopTools(requests[0]!)).toEqual(["call_discovered_tool", "findCustomers", "searchCustomer"]);
    const said = outputs(requests.at(-1)!);
    expect(said).toContain("New tools are available through call_discovered_tool");
    expect(said).toContain("customer_c123_getAverageSpend");
    expect(said).toContain(`{"amount":46.83,"currency":"USD"}`);
  }, 90_000);
});
