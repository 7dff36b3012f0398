import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";
import { testProjects, testTimeouts, testWorkers } from "../../vitest.shared.js";

// The second lane: the same tests on Node 22, with ai 7 and its provider spec (LanguageModelV4) in
// place of the repository's ai 6. Run by `npm run test:ai7` with this folder's own Node and vitest.
const lane = (p: string) => fileURLToPath(new URL(`./node_modules/${p}`, import.meta.url));

export default defineConfig({
  root: fileURLToPath(new URL("../..", import.meta.url)),
  resolve: {
    alias: [
      { find: /^ai$/, replacement: lane("ai/dist/index.js") },
      { find: /^ai\/test$/, replacement: lane("ai/dist/test/index.js") },
      { find: /^ai\/internal$/, replacement: lane("ai/dist/internal/index.js") },
      { find: /^@ai-sdk\/provider$/, replacement: lane("@ai-sdk/provider/dist/index.js") },
      { find: /^@ai-sdk\/openai$/, replacement: lane("@ai-sdk/openai/dist/index.js") },
      { find: /^@ai-sdk\/anthropic$/, replacement: lane("@ai-sdk/anthropic/dist/index.js") },
      { find: /^@ai-sdk\/devtools$/, replacement: lane("@ai-sdk/devtools/dist/index.js") },
    ],
  },
  test: {
    ...testTimeouts,
    ...testWorkers,
    env: { ENTITY_TOOLS_LANE: "ai7" },
    // What the aliases do for the modules vitest loads, for the built package that Node loads.
    execArgv: ["--import", fileURLToPath(new URL("./built-package-imports.mjs", import.meta.url))],
    projects: testProjects(),
  },
});
