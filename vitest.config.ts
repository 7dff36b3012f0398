import { defineConfig } from "vitest/config";
import { packageAliases, testFiles, testTimeouts } from "./vitest.shared.js";

// The first lane: Node 20 and the repository's own ai 6.
export default defineConfig({
  resolve: { alias: packageAliases },
  test: { include: testFiles, ...testTimeouts },
});
