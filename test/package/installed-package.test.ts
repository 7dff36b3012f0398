// The package as users get it: packed, installed from the tarball into scratch projects, compiled by
// tsc and run by node. `npm test` builds first. The installs are shared with the other files and the
// other lane (test/support/consumer-project.ts); each test writes in a folder of its own.
import { execFile } from "node:child_process";
import { cpSync, existsSync, readdirSync, realpathSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { consumerProject } from "../support/consumer-project.js";

const exec = promisify(execFile);
const node = (cwd: string, ...args: string[]) => exec(process.execPath, args, { cwd });
const bin = (cwd: string, name: string, ...args: string[]) =>
  exec(process.execPath, [path.join(cwd, "node_modules", ".bin", name), ...args], { cwd });

/** Total size of a folder, in bytes. */
function sizeOf(dir: string): number {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile())
    .reduce((total, e) => total + statSync(path.join(e.parentPath, e.name)).size, 0);
}

/**
 * Copies a project into the scratch install (without its generated schemas), generates them with the
 * installed CLI, compiles it with tsc and runs its dist/main.js; returns the folder and what it printed.
 */
async function buildAndRun(from: string, name: string, type: "commonjs" | "module") {
  const project = path.join(scratch, name);
  cpSync(from, project, { recursive: true, filter: (f) => !f.includes(`${path.sep}dist`) });
  rmSync(path.join(project, "src", "generated"), { recursive: true });
  writeFileSync(path.join(project, "package.json"), JSON.stringify({ type }));
  const out = `${name}/src/generated/tool-schemas.ts`;
  await bin(scratch, "entity-tools", "schemas", "--project", `${name}/tsconfig.json`, "--out", out);
  await bin(scratch, "tsc", "-p", `${name}/tsconfig.json`);
  return { project, stdout: (await node(project, "dist/main.js")).stdout };
}

let scratch = "";
const folders: string[] = [];

beforeAll(async () => {
  // One install for the CommonJS and the standard-decorator projects, with the compiler a user adds
  // for the schema CLI (build time only).
  scratch = await consumerProject([
    "ai@^6",
    "@ai-sdk/provider@^3",
    "@modelcontextprotocol/server@^2.4.0",
    "@modelcontextprotocol/client@^2.4.0",
    "typescript@~5.9.3",
    "typescript-json-schema@0.68.0",
  ]);
  folders.push(scratch);
}, 0); // npm pack and install: no time limit (minutes on a loaded machine; the work is bounded)

afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

describe("the installed package", () => {
  it("CommonJS: require() of every entry point works from a module: commonjs project, with types (NestJS style)", async () => {
    const { project, stdout } = await buildAndRun("examples/nest-style", "nest-style", "commonjs");
    expect(JSON.parse(stdout)).toEqual({
      answer: "Ada's latest invoice is INV-7, paid.",
      discovered: ["account_a-1_invoices"],
    });
    const entries = `const core = require("entity-tools"), testing = require("entity-tools/testing"),
        codex = require("entity-tools/codex"), mcp = require("entity-tools/mcp");
      console.log([core.PromptRunner, testing.FakePromptRunner, codex.CodexAppServerAdapter, mcp.createMcpServer].map((f) => typeof f).join(" "));`;
    expect((await node(project, "-e", entries)).stdout.trim()).toBe("function function function function");
  }, 0);

  it("TC39 standard decorators: a project without experimentalDecorators, compiled by tsc, discovers and calls entity tools; two same-named output classes", async () => {
    const { stdout } = await buildAndRun("test/fixtures/standard-decorators", "standard", "module");
    const report = JSON.parse(stdout) as Record<string, unknown>;
    expect(report.discovered).toEqual(["ticket_t-1_close"]);
    expect(report.closeResult).toMatchObject({
      content: [{ output: { type: "text", value: "t-1 closed: fire is out" } }],
    });
    // The parameter's description came from JSDoc @param (standard decorators have no @ToolParam).
    expect(JSON.stringify(report.reasonDescription)).toContain("Why the ticket is closed, for the customer");
    // A union of classes: the method received a Dog and a Cat, whose methods work.
    expect(report.admitResult).toMatchObject({
      content: [{ output: { type: "text", value: "a Dog: Woof!; a Cat: Meow (9 lives)" } }],
    });
    // Two output classes named Summary, keyed by their files: each offered its own schema, each answer
    // built as its own class (the helpdesk's `oldest` a Date).
    expect(report.summaries).toEqual([
      [["open", "oldest"], true, true],
      [["cats", "dogs"], true, 1],
    ]);
    // The bare name is refused, with the keys to ask for instead.
    const refused = await bin(
      scratch,
      "entity-tools",
      "schemas",
      "--project",
      "standard/tsconfig.json",
      "--out",
      "standard/x.ts",
      "--type",
      "Summary",
    ).catch((e: { stderr: string }) => e);
    expect("stderr" in refused && refused.stderr).toContain(
      "ask for the one you mean by its key in the module, --type src/helpdesk/summary.Summary or --type src/shelter/summary.Summary",
    );
  }, 0);

  it("one copy of the library behind every entry point: a provider decorated and a schema registered through entity-tools are seen by entity-tools/testing and entity-tools/mcp", async () => {
    // Plain ESM JavaScript, decorators called as functions (docs/schemas.md), the package's names only.
    const script = `
      import * as core from "entity-tools";
      import * as testing from "entity-tools/testing";
      import * as mcp from "entity-tools/mcp";
      import * as blocks from "entity-tools/building-blocks";
      import * as postgres from "entity-tools/postgres";
      import { InMemoryTransport } from "@modelcontextprotocol/server";
      import { Client } from "@modelcontextprotocol/client";

      class Account {
        constructor(id) { this.id = id; }
        balance(currency) { return "42 " + currency; }
      }
      core.LlmTool({ description: "The balance" })(Account.prototype, "balance",
        Object.getOwnPropertyDescriptor(Account.prototype, "balance"));
      core.ToolProvider({ prefix: "account" })(Account);
      // The parameter schema from the schema store, as a generated module registers it.
      core.registerToolSchemas({ outputs: {}, classes: { Account }, tools: { "Account.balance": {
        parameters: ["currency"],
        inputSchema: { type: "object", properties: { currency: { type: "string", description: "ISO code" } },
          required: ["currency"], additionalProperties: false } } } });
      const find = { name: "findAccount", description: "Find the account", inputSchema: { type: "object", properties: {} },
        execute: () => new Account("a-1") };

      const fake = new testing.FakePromptRunner();
      fake.callTool("findAccount").callTool("account_a-1_balance", { currency: "EUR" }).respondWithText("done");
      await fake.withTools(find).withToolProviderDiscovery().run("q");

      const server = mcp.createMcpServer({ name: "bank", version: "1.0.0", tools: [find], discovery: true });
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      await server.connect(serverSide);
      const client = new Client({ name: "consumer", version: "1.0.0" });
      await client.connect(clientSide);
      await client.callTool({ name: "findAccount", arguments: {} });
      const listed = (await client.listTools()).tools.find((t) => t.name === "account_a-1_balance");
      const called = await client.callTool({ name: "account_a-1_balance", arguments: { currency: "EUR" } });
      await client.close();

      let limitError;
      const limited = new testing.FakePromptRunner().withMaxToolIterations(1);
      limited.callTool("findAccount").callTool("findAccount").respondWithText("never");
      await limited.withTools(find).run("q").catch((error) => (limitError = error));

      // Every name two entries both export is one object, not two copies.
      const entries = { core, testing, mcp, blocks, postgres };
      const twins = [];
      for (const [a, one] of Object.entries(entries))
        for (const [b, other] of Object.entries(entries))
          for (const name of Object.keys(one))
            if (a < b && name in other && one[name] !== other[name]) twins.push(a + "." + name + " !== " + b + "." + name);
      console.log(JSON.stringify({
        testing: fake.callsAt(2)[0]?.resultText,
        mcpSchema: listed?.inputSchema.properties,
        mcpResult: called.content[0].text,
        fakeIsRunner: fake instanceof core.PromptRunner,
        limitError: [limitError instanceof core.MaxIterationsExceededError, limitError instanceof core.EntityToolsError],
        twins,
      }));`;
    writeFileSync(path.join(scratch, "one-copy.mjs"), script);
    const { stdout } = await node(scratch, "one-copy.mjs");
    expect(JSON.parse(stdout)).toEqual({
      testing: "42 EUR",
      mcpSchema: { currency: { type: "string", description: "ISO code" } },
      mcpResult: "42 EUR",
      fakeIsRunner: true,
      limitError: [true, true],
      twins: [],
    });
  }, 60_000);

  it("a production install has no TypeScript compiler, and the schema CLI says what to install", async () => {
    const prod = await consumerProject(["ai@^6", "@ai-sdk/provider@^3"], { omitDev: true });
    folders.push(prod);
    expect(existsSync(path.join(prod, "node_modules", "entity-tools"))).toBe(true);
    expect(existsSync(path.join(prod, "node_modules", "typescript"))).toBe(false);
    expect(existsSync(path.join(prod, "node_modules", "typescript-json-schema"))).toBe(false);
    // The install itself (the project's node_modules holds links to its packages).
    const installed = path.dirname(realpathSync(path.join(prod, "node_modules", "entity-tools")));
    const ours = sizeOf(installed) - sizeOf(path.join(installed, "ai"));
    expect(ours / 2 ** 20, "MB installed besides ai").toBeLessThan(20);
    const failed = await bin(prod, "entity-tools", "schemas", "--out", "x.ts").catch(
      (e: { stderr: string; code: number }) => e,
    );
    expect("code" in failed && failed.code).toBe(1);
    expect((failed as { stderr: string }).stderr).toContain(
      "npm install --save-dev typescript-json-schema@0.68",
    );
  }, 0);
});
