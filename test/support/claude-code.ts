// Whether the Claude Code binary of the Claude Agent SDK can run here. It comes in a platform package
// (`@anthropic-ai/claude-agent-sdk-<platform>-<arch>[-musl]`), an optional dependency of the SDK: where the
// SDK publishes one for this platform, `npm ci` installs it and the tests must run (a missing one is a
// failure, not a skip); only on a platform it publishes none for do the tests skip, saying so.
import { readdirSync, readFileSync, readlinkSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { expect } from "vitest";

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

/**
 * The ids of the processes that work in `dir` (Linux): their working directory is `dir` or in it, or a
 * variable of their environment names a path in it (Claude Code's CLAUDE_CONFIG_DIR, TMPDIR). How a test
 * finds its Claude Code.
 */
export function processesIn(dir: string): number[] {
  const inside = (p: string) => p === dir || p.startsWith(`${dir}/`);
  return readdirSync("/proc").flatMap((entry) => {
    if (!/^\d+$/.test(entry)) return [];
    try {
      if (inside(readlinkSync(`/proc/${entry}/cwd`))) return [Number(entry)];
      const environment = readFileSync(`/proc/${entry}/environ`, "utf8").split("\0");
      return environment.some((variable) => inside(variable.slice(variable.indexOf("=") + 1)))
        ? [Number(entry)]
        : [];
    } catch {
      return []; // gone meanwhile, or not ours to read
    }
  });
}

/**
 * Resolves once no process works in `dir` any more (Linux; elsewhere at once): Claude Code goes on writing
 * its config there while it exits, after the run that started it has ended. Fails after 10 s.
 */
export async function noProcessesIn(dir: string): Promise<void> {
  if (process.platform === "linux")
    await expect.poll(() => processesIn(dir), { timeout: 10_000 }).toEqual([]);
}
