// A handle minted elsewhere is re-bound through resolveProvider once per use, on every driver: the
// approval step (which names the provider) and the invoke step share the pipeline's one resolution.
import "../fixtures/store/register.js";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { EntityHandleCodec, PromptRunner } from "entity-tools";
import { CodexAppServerAdapter } from "entity-tools/codex";
import { FakePromptRunner } from "entity-tools/testing";
import { CustomerSearchTools } from "../fixtures/store/customer-search-tools.js";
import { Customer } from "../fixtures/store/customer.js";
import { modernEndpoint } from "../support/mcp-v2.js";

const KEY = "a handle key of this test suite";
const search = new CustomerSearchTools();
const handle = new EntityHandleCodec(KEY).mint({ className: "Customer", instanceKey: "string:c123" });

/** A resolver that counts, and an approval rule that reads the provider (so approval is in the path). */
function counting() {
  const resolved: unknown[] = [];
  const judged: unknown[] = [];
  return {
    resolved,
    judged,
    resolveProvider: (_cls: string, id: string | number | bigint) => {
      resolved.push(id);
      return search.findCustomers("").find((c) => c.id === id);
    },
    approval: (call: { provider?: { id: unknown } }) => judged.push(call.provider?.id) < 0,
  };
}

const discovery = (count: ReturnType<typeof counting>) => ({
  binding: "handles" as const,
  classes: [Customer],
  handleKey: KEY,
  resolveProvider: count.resolveProvider,
});

describe.each(["run", "stream"] as const)("resolveProvider on the AI SDK loop (%s)", (mode) => {
  it("is asked once for a handle the run has not seen", async () => {
    const count = counting();
    const fake = new FakePromptRunner()
      .withTools(search)
      .withToolProviderDiscovery(discovery(count))
      .withApproval(count.approval);
    fake.callTool("customer_getAverageSpend", { handle }).respondWithText("done");
    const run = await (mode === "run" ? fake.run("Spend?") : fake.stream("Spend?").result);
    expect(run.status).toBe("completed");
    expect(fake.calls.map((c) => c.isError)).toEqual([false]);
    expect([count.judged, count.resolved]).toEqual([["c123"], ["c123"]]);
  });
});

describe("resolveProvider on the MCP server (2026-07-28)", () => {
  it("is asked once per call that uses a handle", async () => {
    const count = counting();
    const client = await modernEndpoint({
      name: "shop",
      version: "1.0.0",
      tools: [search],
      classes: [Customer],
      handleKey: KEY,
      resolveProvider: count.resolveProvider,
      approval: count.approval,
    }).connect();
    for (let i = 0; i < 2; i++) {
      const result = await client.callTool({ name: "customer_getAverageSpend", arguments: { handle } });
      expect(result.isError).toBe(false);
    }
    expect([count.judged, count.resolved]).toEqual([
      ["c123", "c123"],
      ["c123", "c123"],
    ]);
  });
});

describe("resolveProvider on Codex (fake app server)", () => {
  it("is asked once for a handle the run has not seen", async () => {
    const count = counting();
    const adapter = new CodexAppServerAdapter({
      command: process.execPath,
      args: [path.resolve("test/support/fake-app-server.mjs")],
      env: {
        FAKE_APP_SERVER: JSON.stringify({
          toolCalls: [{ tool: "customer_getAverageSpend", arguments: { handle } }],
        }),
      },
    });
    const run = await new PromptRunner({ adapter })
      .withTools(search)
      .withToolProviderDiscovery(discovery(count))
      .withApproval(count.approval)
      .run("Spend?");
    expect(run.status).toBe("completed");
    expect([count.judged, count.resolved]).toEqual([["c123"], ["c123"]]);
  });
});
