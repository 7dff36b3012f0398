// Which processes work in a folder: how a test sees that a backend's process (Claude Code, the Codex
// app-server) is gone once its run has ended.
import { readdirSync, readFileSync, readlinkSync } from "node:fs";

/**
 * The ids of the processes that work in `dir` (Linux): their working directory is `dir` or in it, or a
 * variable of their environment names a path in it (Claude Code's CLAUDE_CONFIG_DIR, TMPDIR; Codex's
 * CODEX_HOME). None elsewhere: only Linux has /proc to look in.
 */
export function processesIn(dir: string): number[] {
  if (process.platform !== "linux") return [];
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

/** The program a process runs and its first argument (`node codex.js`, a native binary's path), or "" once it is gone. */
export function programOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").slice(0, 2).join(" ");
  } catch {
    return "";
  }
}
