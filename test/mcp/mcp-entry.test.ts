// `import("entity-tools/mcp")` without `@modelcontextprotocol/server` installed: an error that says what
// to install, not Node's bare ERR_MODULE_NOT_FOUND (the package's "import" condition is src/mcp/entry.ts).
import { afterEach, describe, expect, it, vi } from "vitest";
import { EntityToolsError } from "entity-tools";

afterEach(() => {
  vi.doUnmock("@modelcontextprotocol/server");
  vi.resetModules();
});

describe("the entity-tools/mcp entry", () => {
  it("without @modelcontextprotocol/server: an EntityToolsError naming the package to install", async () => {
    vi.resetModules();
    vi.doMock("@modelcontextprotocol/server", () => {
      throw new Error("Cannot find package '@modelcontextprotocol/server' imported from entity-tools");
    });
    const loading = import("../../src/mcp/entry.js");
    // a fresh module graph (resetModules) has its own class: checked as the package's own brand does
    expect(EntityToolsError.isInstance(await loading.catch((e: unknown) => e))).toBe(true);
    await expect(loading).rejects.toThrow(
      /could not load @modelcontextprotocol\/server: .*Install it with `npm install @modelcontextprotocol\/server`/,
    );
  });

  it("with it installed: the same exports as the require entry", async () => {
    const [entry, index] = await Promise.all([
      import("../../src/mcp/entry.js"),
      import("../../src/mcp/index.js"),
    ]);
    expect(Object.keys(entry).sort()).toEqual(Object.keys(index).sort());
    expect(entry.createMcpServer).toBe(index.createMcpServer);
  });
});
