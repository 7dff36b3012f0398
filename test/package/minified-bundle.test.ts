// The library in a minified bundle: class and parameter names are mangled, and lookups still work
// because the generated module hands over the classes themselves. Uses the build (npm test builds first).
import { mkdirSync, symlinkSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { bundleApp, bundledText, runBundled, runMinified } from "../support/minified-bundle.js";

describe("a bundle made with esbuild --minify", () => {
  it("discovers a provider and runs its tool with a parameter", async () => {
    const report = await runMinified<{ className: string; injected: string[]; lastResult: unknown }>(
      "test/fixtures/bundle/minified-agent.ts",
    );
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

  it("G18 runs a tool with an explicit schema, its parameter names mangled (was: the method got undefined)", async () => {
    const report = await runMinified<{
      source: string;
      results: unknown[];
      refused: string;
      destructured: string;
    }>("test/fixtures/bundle/explicit-schema-agent.ts");
    expect(report.source).not.toContain("text"); // the minifier did rename the parameters
    expect(report.results).toEqual([
      { type: "text", value: "hi hi" },
      { type: "text", value: "once" },
    ]);
    // G24: a method's own rest parameter is refused there too (was: bound, as names are not compared)
    expect(report.refused).toMatch(
      /^@LlmTool on [\w$]+\.tag: parameter "[\w$]+" is a rest parameter: a tool's input is one object keyed by the method's parameter names; take an array instead \([\w$]+: T\[\]\)$/,
    );
    // G30: so is a destructured parameter, as unminified (G04) (was: bound, the properties taken as its
    // parameters in order, so place({ sku, qty }) got the string sku to destructure)
    expect(report.destructured).toMatch(
      /^@LlmTool on [\w$]+\.place: parameter #1 has no plain name \(a destructuring pattern\); the model's input reaches a method by parameter name: give it a name and describe it in parameters under that name$/,
    );
  }, 60_000);

  it("G25 an MCP server with an explicit schema: one that is not valid JSON Schema is refused when the server is made (the validator is the bundle's), a valid one serves", async () => {
    const outfile = await bundleApp("test/fixtures/bundle/mcp-explicit-schema.ts");
    // The MCP SDK is the one package the app installs (the entry loads it by name); not ajv.
    const scope = path.join(path.dirname(outfile), "node_modules", "@modelcontextprotocol");
    mkdirSync(scope, { recursive: true });
    symlinkSync(path.resolve("node_modules/@modelcontextprotocol/server"), path.join(scope, "server"));
    const report = await runBundled<{ refused: string; result: unknown }>(outfile);
    expect(report.refused).toMatch(
      /^@LlmTool on \w+\.find: parameters is not a valid JSON Schema \(schema is invalid: data\/properties\/q\/type must be equal to one of the allowed values/,
    );
    expect(report.result).toEqual([{ type: "text", text: "hi hi" }]);
  }, 60_000);

  it("keeps only what the app uses: an app of defineTool alone carries neither the runner nor the stores", async () => {
    const outfile = await bundleApp("test/fixtures/bundle/define-tool-only.ts", { minify: false });
    expect(await runBundled(outfile)).toEqual({ name: "ping", description: "Answers pong" });
    const text = bundledText(outfile);
    expect(text).toContain("defineTool");
    for (const unused of [
      "PromptRunner",
      "FileConversationStore",
      "ToolProviderStrategy",
      "EntityHandleCodec",
    ])
      expect(text, unused).not.toContain(unused);
  }, 60_000);
});
