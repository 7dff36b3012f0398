// Claude Code's process, started through the SDK's `spawnClaudeCodeProcess` so that closing a conversation
// can wait for it to exit. The SDK's `query.close()` returns at once (it closes stdin, sends SIGTERM 2 s
// later and SIGKILL 5 s after that), and Claude Code goes on writing its config (`.claude.json`, backups)
// while it exits: a caller that removes the folder, or exits, once the run has ended would race it. The
// SDK's `return()` waits too, but at most 2 s, and offers no way to know whether the process is gone.
import { nodeChildProcess } from "../lazy/node-builtins.js";
import type { Options, SpawnedProcess, SpawnOptions } from "./claude-sdk.js";

/**
 * Longest wait for Claude Code to exit once closed, in milliseconds: past the SDK's SIGTERM at 2 s (what
 * ends a Claude Code blocked in a tool call, as in an aborted run) and its shutdown. Then it is killed.
 */
export const CLAUDE_EXIT_WAIT_MS = 5_000;

/** One conversation's Claude Code process, once the SDK has started it. */
export class ClaudeProcess {
  private child: SpawnedProcess | undefined;

  /**
   * @param onStderr what Claude Code writes to stderr (the SDK reads it only from a process it starts)
   * @param custom the caller's own `spawnClaudeCodeProcess`, used instead of ours when set
   */
  constructor(
    private readonly onStderr: (data: string) => void,
    private readonly custom: Options["spawnClaudeCodeProcess"],
  ) {}

  /** The SDK's `spawnClaudeCodeProcess`: starts Claude Code as the SDK would, and keeps it. */
  readonly spawn = (options: SpawnOptions): SpawnedProcess => {
    this.child = this.custom ? this.custom(options) : this.spawnLocal(options);
    return this.child;
  };

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

  /** As the SDK starts Claude Code itself: piped stdio, its abort signal, no console window. */
  private spawnLocal({ command, args, cwd, env, signal }: SpawnOptions): SpawnedProcess {
    const child = nodeChildProcess().spawn(command, args, {
      ...(cwd === undefined ? {} : { cwd }),
      env,
      signal,
      stdio: ["pipe", "pipe", "pipe"],
      windowsHide: true,
    });
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (data: string) => this.onStderr(data));
    child.on("error", () => {}); // a failed start or an abort: the SDK hears it on its own listener
    return child;
  }
}
