import { execFile } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { tempDir } from "../support/temp-dir.js";

const run = promisify(execFile);

// `npm test` builds before the suite; this checks what a user's `import "entity-tools"` resolves to.
describe("the built package, imported by its own name (npm test builds first)", () => {
  it("has been built", () => expect(existsSync("dist/src/index.js"), "run npm run build first").toBe(true));

  it("exports the runtime API from entity-tools and the testing kit from entity-tools/testing", async () => {
    const script = `
      const core = await import("entity-tools");
      const testing = await import("entity-tools/testing");
      const blocks = await import("entity-tools/building-blocks");
      console.log(JSON.stringify({
        blocks: ["EntityHandleCodec", "HandleBindings", "bindProviderTools"].filter(
          (name) => typeof blocks[name] !== "function" || blocks[name] !== core[name],
        ),
        core: ["PromptRunner", "ToolProvider", "LlmTool", "ToolParam", "defineTool", "registerToolSchemas",
               "ToolProviderStrategy", "MaxIterationsExceededError", "ToolNotFoundError", "InvalidToolProviderError"]
               .filter((name) => typeof core[name] !== "function"),
        testing: ["FakePromptRunner", "ScriptedLanguageModel"].filter((name) => typeof testing[name] !== "function"),
        fakeInCore: "FakePromptRunner" in core,
      }));`;
    const { stdout } = await run(process.execPath, ["--input-type=module", "-e", script]);
    expect(JSON.parse(stdout)).toEqual({ blocks: [], core: [], testing: [], fakeInCore: false });
  });

  it("lists its public names: exactly these runtime exports, and Codex only under entity-tools/codex", async () => {
    const script = `
      const core = await import("entity-tools");
      const codex = await import("entity-tools/codex");
      const mcp = await import("entity-tools/mcp");
      const claude = await import("entity-tools/claude");
      const postgres = await import("entity-tools/postgres");
      const schemaPlugin = await import("entity-tools/schema-plugin");
      console.log(JSON.stringify({ core: Object.keys(core).sort(), codex: Object.keys(codex).sort(), mcp: Object.keys(mcp),
        claude: Object.keys(claude).sort(), postgres: Object.keys(postgres).sort(),
        schemaPlugin: Object.keys(schemaPlugin).sort(),
        // the compiler is loaded by the first build, not by the build's configuration importing the plugin
        compilerLoaded: Object.keys((await import("node:module")).createRequire(import.meta.url).cache)
          .some((f) => f.includes("/node_modules/typescript/")) }));`;
    const { stdout } = await run(process.execPath, ["--input-type=module", "-e", script]);
    expect(JSON.parse(stdout)).toEqual({
      core: [
        "AiSdkAdapter",
        "ApprovalRequiredError",
        "ApprovalRuleError",
        "ConversationConflictError",
        "ConversationMismatchError",
        "ConversationStoreUnavailableError",
        "ConversationTooLargeError",
        "DEFAULT_MAX_EXPANSIONS",
        "DEFAULT_MAX_INJECTED_TOOLS",
        "DEFAULT_MAX_ITERATIONS",
        "DEFAULT_MAX_SNAPSHOT_BYTES",
        "DEFAULT_RUN_LOG_MAX_BYTES",
        "DEFAULT_RUN_SETTINGS",
        "DEFAULT_TURN_LEASE_MS",
        "DecoratorMisuseError",
        "DuplicateToolNameError",
        "EntityHandleCodec",
        "EntityHandleError",
        "EntityToolsError",
        "ExpansionLimitError",
        "FileConversationStore",
        "HANDLE_PARAMETER",
        "HandleBindings",
        "Hidden",
        "InvalidConversationIdError",
        "InvalidSettingError",
        "InvalidToolNameError",
        "InvalidToolProviderError",
        "InvalidToolSourceError",
        "LlmTool",
        "MarkdownSection",
        "MaxIterationsExceededError",
        "MissingOutputSchemaError",
        "MissingToolSchemaError",
        "ModelCallError",
        "OutputValidationError",
        "PromptRunner",
        "PromptTemplate",
        "PromptTemplateError",
        "READ_SECTION",
        "RUN_LOG_FORMAT",
        "RUN_LOG_VERSION",
        "RunLogError",
        "RunStream",
        "RunnerLimits",
        "SNAPSHOT_FORMAT",
        "SectionVisibility",
        "SnapshotError",
        "SnapshotIntegrityError",
        "StaleToolSchemaError",
        "StoredConversationUnreadableError",
        "StrategyError",
        "StreamAlreadyReadError",
        "StreamPartsDroppedError",
        "TOOL_NAME_PATTERN",
        "TelemetryUnavailableError",
        "ToolContent",
        "ToolLoopAbortedError",
        "ToolLoopError",
        "ToolNotFoundError",
        "ToolParam",
        "ToolProvider",
        "ToolProviderStrategy",
        "ToolSchemaError",
        "ToolSourceClashError",
        "ToolSourceError",
        "UnsupportedModelSettingError",
        "VisibilityExpansionRequired",
        "beginConversationTurn",
        "bindObjectTools",
        "bindProviderTools",
        "defineTool",
        "estimateDefinitionTokens",
        "getLlmTools",
        "getToolParamDescriptions",
        "getToolProviderOptions",
        "handleParameterOf",
        "handleToolsOf",
        "isToolContent",
        "isToolProvider",
        "isValidToolName",
        "readRunLog",
        "registerToolSchemas",
        "runView",
        "toolAudio",
        "toolContent",
        "toolFile",
        "toolImage",
      ],
      codex: [
        "CodexAppServerAdapter",
        "CodexAppServerError",
        "DEFAULT_CODEX_ARGS",
        "buildDynamicTools",
        "buildToolCallDeltaFromDynamicRequest",
      ],
      mcp: [
        "DEFAULT_LIST_TTL_MS",
        "McpStdioServerTransport",
        "McpStreamableHTTPServerTransport",
        "createMcpServer",
      ],
      claude: ["ClaudeAgentSdkAdapter", "ClaudeAgentSdkError"],
      postgres: [
        "DEFAULT_SCHEMA",
        "DEFAULT_TABLE",
        "PostgresConversationStore",
        "PostgresStoreError",
        "PostgresTable",
      ],
      schemaPlugin: ["esbuildSchemaPlugin", "schemaPlugin"],
      compilerLoaded: false,
    });
  });

  it("without pg installed, entity-tools and entity-tools/postgres load; the store says what to install when first used", async () => {
    const dir = tempDir("no-pg-");
    writeFileSync(
      path.join(dir, "hooks.mjs"),
      `export async function resolve(specifier, context, next) {
        if (specifier === "pg" || specifier.startsWith("pg/"))
          throw Object.assign(new Error("Cannot find package '" + specifier + "'"), { code: "ERR_MODULE_NOT_FOUND" });
        return next(specifier, context);
      }`,
    );
    writeFileSync(
      path.join(dir, "register.mjs"),
      `import { register } from "node:module"; register(${JSON.stringify(new URL(`file://${dir}/hooks.mjs`).href)});`,
    );
    const script = `
      await import("entity-tools");
      const { PostgresConversationStore } = await import("entity-tools/postgres");
      const store = new PostgresConversationStore({ connectionString: "postgres://127.0.0.1:1/x" });
      try { await store.get("c-1"); } catch (error) { console.log(error.constructor.name, "|", error.message); }`;
    const { stdout } = await run(process.execPath, [
      "--import",
      path.join(dir, "register.mjs"),
      "--input-type=module",
      "-e",
      script,
    ]);
    expect(stdout.trim()).toMatch(
      /^PostgresStoreError \| PostgresConversationStore could not load pg \(node-postgres\): .*Install it with `npm install pg`\.$/,
    );
  });

  it("without the Claude Agent SDK installed, entity-tools and entity-tools/claude load; the backend says what to install when a run starts", async () => {
    // A resolve hook that makes the SDK missing: importing it at load time would fail these imports.
    const dir = tempDir("no-claude-sdk-");
    writeFileSync(
      path.join(dir, "hooks.mjs"),
      `export async function resolve(specifier, context, next) {
        if (specifier.startsWith("@anthropic-ai/claude-agent-sdk"))
          throw Object.assign(new Error("Cannot find package '" + specifier + "'"), { code: "ERR_MODULE_NOT_FOUND" });
        return next(specifier, context);
      }`,
    );
    writeFileSync(
      path.join(dir, "register.mjs"),
      `import { register } from "node:module"; register(${JSON.stringify(new URL(`file://${dir}/hooks.mjs`).href)});`,
    );
    const script = `
      const { PromptRunner } = await import("entity-tools");
      const { ClaudeAgentSdkAdapter } = await import("entity-tools/claude");
      const runner = new PromptRunner({ adapter: new ClaudeAgentSdkAdapter() });
      try { await runner.run("hi"); } catch (error) { console.log(error.constructor.name, "|", error.cause?.message); }`;
    const { stdout } = await run(process.execPath, [
      "--import",
      path.join(dir, "register.mjs"),
      "--input-type=module",
      "-e",
      script,
    ]);
    expect(stdout.trim()).toMatch(
      /^ModelCallError \| The Claude Agent SDK backend could not load @anthropic-ai\/claude-agent-sdk: .*Install it with `npm install @anthropic-ai\/claude-agent-sdk`\.$/,
    );
  });

  it("importing entity-tools loads no child-process module (entity-tools/codex does)", async () => {
    const loads = async (entry: string) => {
      const script = `await import("${entry}");
        console.log(process.moduleLoadList.some((m) => m.includes("child_process")));`;
      return (await run(process.execPath, ["--input-type=module", "-e", script])).stdout.trim();
    };
    expect(await loads("entity-tools")).toBe("false");
    expect(await loads("entity-tools/mcp")).toBe("false");
    expect(await loads("entity-tools/claude")).toBe("false"); // the SDK, which spawns, loads when a run starts
    expect(await loads("entity-tools/codex")).toBe("true");
  });

  it("importing entity-tools loads neither node:crypto nor node:fs/promises: what signs or stores loads them", async () => {
    // Node's own modules behind each (node:crypto alone is 17): a third of what the import cost over ai's.
    const script = `const loaded = () => ["crypto", "fs/promises"].filter((m) => process.moduleLoadList.includes("NativeModule " + m));
      const core = await import("entity-tools");
      const atImport = loaded();
      new core.EntityHandleCodec(); // signs with the process's random key
      const afterKey = loaded();
      const store = new core.FileConversationStore(${JSON.stringify(tempDir("store-"))});
      await store.get("c-1");
      console.log(JSON.stringify({ atImport, afterKey, afterStore: loaded() }));`;
    const { stdout } = await run(process.execPath, ["--input-type=module", "-e", script]);
    expect(JSON.parse(stdout)).toEqual({
      atImport: [],
      afterKey: ["crypto"],
      afterStore: ["crypto", "fs/promises"],
    });
  });

  it("pg is loaded by neither entity-tools nor entity-tools/postgres until a store opens its own pool", async () => {
    const script = `
      const { createRequire } = await import("node:module");
      const cache = createRequire(process.cwd() + "/").cache;
      const pg = () => Object.keys(cache).some((k) => k.includes("/node_modules/pg/"));
      await import("entity-tools");
      const core = pg();
      const { PostgresConversationStore } = await import("entity-tools/postgres");
      const entry = pg();
      const store = new PostgresConversationStore({ connectionString: "postgres://127.0.0.1:1/x", connectTimeoutMs: 1000 });
      await store.get("c-1").catch(() => {});
      await store.close();
      console.log(JSON.stringify({ core, entry, used: pg() }));`;
    const { stdout } = await run(process.execPath, ["--input-type=module", "-e", script]);
    expect(JSON.parse(stdout)).toEqual({ core: false, entry: false, used: true });
  });

  it("importing entity-tools loads neither ajv nor class-transformer: a run loads them before its first call", async () => {
    // What `require` has loaded: ajv and class-transformer are CommonJS, so an import of them shows here too.
    const script = `const { createRequire } = await import("node:module");
      const core = await import("entity-tools");
      const loaded = () => Object.keys(createRequire(import.meta.url).cache)
        .map((file) => /node_modules\\/(ajv|ajv-formats|class-transformer)\\//.exec(file)?.[1]).filter(Boolean);
      const atImport = [...new Set(loaded())];
      await new core.PromptRunner({ model: "unused" }).run("q").catch(() => undefined);
      console.log(JSON.stringify({ atImport, afterRun: [...new Set(loaded())].sort() }));`;
    const { stdout } = await run(process.execPath, ["--input-type=module", "-e", script]);
    expect(JSON.parse(stdout)).toEqual({
      atImport: [],
      afterRun: ["ajv", "ajv-formats", "class-transformer"],
    });
  });

  it('import("entity-tools") loads a handful of files (its bundle and the chunks it shares), and no package but ai', () => {
    // The static imports of the built root entry, followed through our own files: what Node loads for it.
    const files = new Set<string>();
    const packages = new Set<string>();
    const visit = (file: string) => {
      if (files.has(file)) return;
      files.add(file);
      const text = readFileSync(file, "utf8");
      for (const m of text.matchAll(/^(?:import|export)\s[^;]*?from\s+"([^"]+)"|^import\s+"([^"]+)"/gm)) {
        const specifier = (m[1] ?? m[2])!;
        if (specifier.startsWith(".")) visit(path.resolve(path.dirname(file), specifier));
        else packages.add(specifier);
      }
    };
    visit(path.resolve("dist/src/index.js"));
    // 140 modules before the entry points were bundled; every entry added to package.json may split the
    // shared chunks a little further.
    expect(files.size).toBeLessThanOrEqual(20);
    expect([...files].map((f) => path.relative("dist", f))).toContain("decorators/reflect-metadata.cjs");
    // ajv, class-transformer and the optional peers are import()ed when first needed.
    expect([...packages].filter((p) => !p.startsWith("node:"))).toEqual(["ai"]);
  });

  it("ships the schema CLI and the run viewer as the entity-tools bin", async () => {
    const bin = (JSON.parse(readFileSync("package.json", "utf8")) as { bin: Record<string, string> }).bin;
    expect(bin).toEqual({ "entity-tools": "./dist/src/cli.js" });
    const schemas = await run(process.execPath, ["dist/src/cli.js", "schemas", "--help"]);
    expect(schemas.stdout).toContain("Usage: entity-tools schemas --project tsconfig.json");
    const view = await run(process.execPath, ["dist/src/cli.js", "view", "--help"]);
    expect(view.stdout).toContain("Usage: entity-tools view <dir-or-file> [--html out.html]");
  });
});
