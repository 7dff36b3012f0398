// Whether the Claude Code binary of the Claude Agent SDK can run here. It comes in a platform package
// (`@anthropic-ai/claude-agent-sdk-<platform>-<arch>[-musl]`), an optional dependency of the SDK: where the
// SDK publishes one for this platform, `npm ci` installs it and the tests must run (a missing one is a
// failure, not a skip); only on a platform it publishes none for do the tests skip, saying so.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

const require = createRequire(import.meta.url);

function platformKey(): string {
  const header = (process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined)
    ?.header;
  const musl = process.platform === "linux" && !header?.glibcVersionRuntime ? "-musl" : "";
  return `${process.platform}-${process.arch}${musl}`;
}

/** Why the Claude Code tests cannot run on this machine, or `undefined` when they can. */
export function claudeCodeUnavailable(): string | undefined {
  const sdkDir = path.dirname(require.resolve("@anthropic-ai/claude-agent-sdk"));
  const sdk = JSON.parse(readFileSync(path.join(sdkDir, "package.json"), "utf8")) as {
    optionalDependencies?: Record<string, string>;
  };
  const platformPackage = `@anthropic-ai/claude-agent-sdk-${platformKey()}`;
  if (!(platformPackage in (sdk.optionalDependencies ?? {})))
    return `the Claude Agent SDK publishes no Claude Code binary for ${platformKey()} (no ${platformPackage})`;
  return undefined; // supported: the binary must be there, and a test fails if it is not
}
