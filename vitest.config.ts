import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// Tests import the package by its own name; resolve it to the sources so a test never sees a stale build.
const src = (p: string) => fileURLToPath(new URL(p, import.meta.url));

export default defineConfig({
  resolve: {
    alias: [
      { find: /^entity-tools\/testing$/, replacement: src("./src/testing/index.ts") },
      { find: /^entity-tools\/codex$/, replacement: src("./src/codex/index.ts") },
      { find: /^entity-tools$/, replacement: src("./src/index.ts") },
    ],
  },
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
