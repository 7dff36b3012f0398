// A script of the tests (TypeScript) bundled once per test file and run by plain Node, for the tests that
// start it again and again, each time in a process of its own. Under tsx's loader every module a process
// loads (ai, the providers, OpenTelemetry, the built package) costs about three times the CPU: most of a
// second of each start. The script's packages (`entity-tools` among them) stay imports that Node resolves
// as it does under tsx, from the repository, so the bundle is written there (node_modules/.cache); it is
// removed when the test file ends.
import { rmSync } from "node:fs";
import path from "node:path";
import { build } from "esbuild";
import { afterAll } from "vitest";

const bundles = new Map<string, Promise<string>>();
// Registered as the test file imports this module, so it runs when that file ends.
afterAll(async () => {
  const written = await Promise.allSettled(bundles.values());
  bundles.clear();
  for (const file of written) if (file.status === "fulfilled") rmSync(file.value, { force: true });
});

/**
 * The bundle of `script` (a path from the repository's root), made on first use in this test file; the
 * imports matching `external` (esbuild patterns, one `*` each) stay imports too.
 */
export function bundledScript(script: string, external: readonly string[] = []): Promise<string> {
  let bundle = bundles.get(script);
  if (!bundle) {
    const name = `${path.basename(script, ".ts")}-${process.pid}.mjs`;
    const outfile = path.resolve("node_modules/.cache/entity-tools-tests", name);
    bundle = build({
      entryPoints: [script],
      bundle: true,
      platform: "node",
      format: "esm",
      target: "node20",
      packages: "external",
      external: [...external],
      outfile,
      logLevel: "warning",
    }).then(() => outfile);
    bundles.set(script, bundle);
  }
  return bundle;
}
