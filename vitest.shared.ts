// What both test lanes share: the package's own name resolved to its sources (so a test never sees a
// stale build), and the one list of test files. The ai 7 lane adds its own `ai` on top.
import { fileURLToPath } from "node:url";

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));

export const packageAliases = [
  { find: /^entity-tools\/testing$/, replacement: here("./src/testing/index.ts") },
  { find: /^entity-tools\/codex$/, replacement: here("./src/codex/index.ts") },
  { find: /^entity-tools\/mcp$/, replacement: here("./src/mcp/index.ts") },
  { find: /^entity-tools\/claude$/, replacement: here("./src/claude/index.ts") },
  { find: /^entity-tools\/postgres$/, replacement: here("./src/postgres/index.ts") },
  { find: /^entity-tools\/building-blocks$/, replacement: here("./src/building-blocks/index.ts") },
  { find: /^entity-tools\/schema-plugin$/, replacement: here("./src/schema-plugin/index.ts") },
  { find: /^entity-tools$/, replacement: here("./src/index.ts") },
];

export const testFiles = ["test/**/*.test.ts"];

export const testTimeouts = { testTimeout: 30_000, hookTimeout: 240_000 };
