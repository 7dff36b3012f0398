import { execFile } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { tempDir } from "../support/temp-dir.js";

const run = promisify(execFile);
const TSX = path.resolve("node_modules/.bin/tsx");
const offlineEnv = { ...process.env, OPENAI_API_KEY: "", OPENAI_BASE_URL: "" };

async function demo(args: string[], env: NodeJS.ProcessEnv = offlineEnv) {
  try {
    const { stdout, stderr } = await run(TSX, ["examples/demo.ts", ...args], { env, timeout: 60_000 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe("npm run demo", () => {
  it("runs offline, labelled as such, printing each step, injection and the answer, and logs the run with a Mermaid trace of it", async () => {
    const trace = path.join(tempDir("demo-"), "runs");
    const { code, stdout } = await demo(["--trace", trace]);
    expect(code).toBe(0);
    expect(stdout).toContain("model: built-in offline model (scripted");
    expect(stdout).toContain("── step 1 · model request with 2 tool(s) · new: searchCustomer, findCustomers");
    expect(stdout).toContain('   model → searchCustomer({"name":"John Smith"})');
    expect(stdout).toContain(
      "   + injected 2 tool(s) from searchCustomer: customer_c123_getAverageSpend, customer_c123_recentOrders",
    );
    expect(stdout).toContain('   tool  ← customer_c123_getAverageSpend: {"amount":46.83,"currency":"USD"}');
    expect(stdout).toContain("── answer (SpendAnswer):");
    // The cost of the run, per step, and what the discovered customer's tools and call added.
    expect(stdout).toMatch(
      /── cost: \$\d+\.\d{6} over 3 step\(s\) \(token counts estimated: offline model\)/,
    );
    expect(stdout).toMatch(/ {3}step 3: \$\d+\.\d{6} · in \d+ \(cached 0\) out \d+/);
    expect(stdout).toMatch(
      / {3}Customer c123: \$0\.0000[1-9]\d · [1-9]\d* definition token\(s\) across later requests, 1 call\(s\)/,
    );
    // The trace is the run log (what `entity-tools view` shows), and the diagram is drawn from it.
    const logged = readdirSync(trace).filter((f) => f.endsWith(".jsonl"));
    expect(logged).toHaveLength(1);
    expect(stdout).toContain(`see it: npx entity-tools view ${trace}`);
    const log = readFileSync(path.join(trace, logged[0]!), "utf8");
    expect(log).toContain('"type":"discovered"');
    const markdown = readFileSync(path.join(trace, "trace.md"), "utf8");
    expect(markdown).toContain("sequenceDiagram");
    expect(markdown).toContain("  R->>T: customer_c123_getAverageSpend({})");
    expect(markdown).toContain(
      "  Note over R: injected customer_c123_getAverageSpend, customer_c123_recentOrders",
    );
  });

  it("explains itself with --help and answers a wrong option or example with one line", async () => {
    expect((await demo(["--help"])).stdout).toContain("Usage: npm run demo -- [--example NAME]");
    const wrong = await demo(["--colour"]);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr.trim()).toBe("demo: Unknown option '--colour' (see --help)");
    expect((await demo(["--example", "nope"])).stderr.trim()).toBe(
      'demo: unknown example "nope"; choose one of customer-spend, orders, shopping-cart, support-desk',
    );
  });

  it("reports an unreachable server in one line, not a stack trace", async () => {
    const { code, stderr } = await demo(["--model", "llama3"], {
      ...offlineEnv,
      OPENAI_BASE_URL: "http://127.0.0.1:9/v1",
    });
    expect(code).toBe(1);
    expect(stderr.trim().split("\n")).toHaveLength(1);
    expect(stderr).toMatch(/^demo: The model call failed: .*Cannot connect to API/);
  });
});
