// examples/deferred-delivery as its header runs it: one command, offline (no ANTHROPIC_API_KEY), the real
// @ai-sdk/anthropic provider against the scripted Messages API.
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

describe("examples/deferred-delivery", () => {
  it("runs offline: the customer's tools are delivered deferred, the tool list never changes", async () => {
    const { stdout } = await promisify(execFile)(
      path.resolve("node_modules/.bin/tsx"),
      ["examples/deferred-delivery/agent.ts"],
      { env: { ...process.env, ANTHROPIC_API_KEY: "" }, timeout: 60_000 },
    );
    expect(stdout).toContain("model: local scripted Messages API at http://127.0.0.1:");
    expect(stdout).toContain(
      "+ discovered Customer c123, delivered deferred: customer_c123_getAverageSpend, customer_c123_recentOrders",
    );
    expect(stdout).toContain('tool  customer_c123_getAverageSpend → {"amount":46.83,"currency":"USD"}');
    expect(stdout).toContain("answer: John Smith spends 46.83 USD a month on average.");
    expect(stdout).toContain(
      "requests: 3; tool list identical in every request: yes (searchCustomer, findCustomers)",
    );
    expect(stdout).toContain("each request began with the whole previous one: yes");
    expect(stdout).not.toContain("warning:");
  });
});
