// Claude Code's process, kept so that closing a conversation can wait for it to exit. The SDK's
// `query.close()` returns at once (it closes stdin, sends SIGTERM 2 s later and SIGKILL 5 s after that),
// and Claude Code goes on writing its config (`.claude.json`, backups) while it exits: a caller that
// removes the folder, or exits, once the run has ended would race it. The SDK's `return()` waits too, but
// at most 2 s, and offers no way to know whether the process is gone. The SDK still starts the process
// itself (debug file, stderr, environment, exit as it does them): only node's `spawn` is ours.
import { nodeChildProcess } from "../lazy/node-builtins.js";
import { withHostSpawn, type Options, type SpawnedProcess } from "./claude-sdk.js";

/**
 * Longest wait for Claude Code to exit once closed, in milliseconds: past the SDK's SIGTERM at 2 s (what
 * ends a Claude Code blocked in a tool call, as in an aborted run) and its shutdown. Then it is killed.
 */
export const CLAUDE_EXIT_WAIT_MS = 5_000;

/** What waiting for the process reads of it: the SDK's `SpawnedProcess`, or node's `ChildProcess`. */
type Exiting = Pick<SpawnedProcess, "exitCode" | "signalCode" | "kill" | "once">;

/** One conversation's Claude Code process, once the SDK has started it. */
export class ClaudeProcess {
  private child: Exiting | undefined;

  /** @param custom the caller's own `spawnClaudeCodeProcess`, used instead of the SDK's start when set */
  constructor(private readonly custom: Options["spawnClaudeCodeProcess"]) {}

  /** The `query()` options through which the SDK starts Claude Code and this object keeps it. */
  startOptions(): Partial<Options> {
    const custom = this.custom;
    if (custom) return { spawnClaudeCodeProcess: (options) => (this.child = custom(options)) };
    return withHostSpawn((command, args, options) => {
      const child = nodeChildProcess().spawn(command, args, options);
      this.child = child;
      return child;
    });
  }

  /**
   * Resolves once the process has exited (at once when it never started or is gone); after
   * {@link CLAUDE_EXIT_WAIT_MS} it is killed (SIGKILL) and this resolves without waiting more.
   */
  async exited(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || (child.signalCode ?? null) !== null) return;
    let timer: NodeJS.Timeout | undefined;
    const exit = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, CLAUDE_EXIT_WAIT_MS)));
    await Promise.race([exit, late]);
    clearTimeout(timer);
    if (child.exitCode === null && (child.signalCode ?? null) === null) child.kill("SIGKILL");
  }
}
