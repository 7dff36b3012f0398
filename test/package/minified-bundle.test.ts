// The library in a minified bundle: class and parameter names are mangled, and lookups still work
// because the generated module hands over the classes themselves. Uses the build (npm test builds first).
import { execFile } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { build } from "esbuild";
import { describe, expect, it } from "vitest";

describe("a bundle made with esbuild --minify", () => {
  it("discovers a provider and runs its tool with a parameter", async () => {
    const outfile = path.join(mkdtempSync(path.join(tmpdir(), "bundle-")), "agent.mjs");
    await build({
      entryPoints: ["test/fixtures/bundle/minified-agent.ts"],
      bundle: true,
      minify: true,
      platform: "node",
      format: "esm",
      target: "node20",
      outfile,
      logLevel: "silent",
      // CommonJS dependencies bundled into ESM call require() for Node built-ins.
      banner: {
        js: 'import { createRequire as __cr } from "node:module"; const require = __cr(import.meta.url);',
      },
    });
    const { stdout } = await promisify(execFile)(process.execPath, [outfile]);
    const report = JSON.parse(stdout) as { className: string; injected: string[]; lastResult: unknown };
    expect(report.className).not.toBe("CustomerSearchTools"); // the minifier did rename it
    // Default prefixes come from the source names ("order", not the minified class name).
    expect(report.injected).toEqual([
      "customer_c123_getAverageSpend",
      "customer_c123_recentOrders",
      "order_o-1001_getLineItems",
      "order_o-1001_getTotal",
    ]);
    expect(report.lastResult).toEqual({
      type: "text",
      value: expect.stringMatching(/^\[\{"id":"o-1001","customerId":"c123"/),
    });
  }, 60_000);
});
