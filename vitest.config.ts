import { defineConfig } from "vitest/config";
import { testProjects, testTimeouts, testWorkers } from "./vitest.shared.js";

// The first lane: Node 20 and the repository's own ai 6.
export default defineConfig({
  test: { ...testTimeouts, ...testWorkers, projects: testProjects() },
});
