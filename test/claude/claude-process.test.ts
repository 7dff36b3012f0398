// How a conversation's close waits for Claude Code's process (B01), on a stand-in for it: the exit awaited,
// and a process that does not exit killed once the wait is over, without waiting more.
import { EventEmitter } from "node:events";
import { PassThrough } from "node:stream";
import { afterEach, describe, expect, it, vi } from "vitest";
import { CLAUDE_EXIT_WAIT_MS, ClaudeProcess } from "../../src/claude/claude-process.js";
import type { SpawnedProcess, SpawnOptions } from "../../src/claude/claude-sdk.js";

/** A process that exits only when told to, or when killed with SIGKILL; what it was sent. */
class StandIn extends EventEmitter {
  readonly stdin = new PassThrough();
  readonly stdout = new PassThrough();
  exitCode: number | null = null;
  signalCode: NodeJS.Signals | null = null;
  readonly signals: string[] = [];
  get killed() {
    return this.signals.length > 0;
  }
  kill(signal: NodeJS.Signals): boolean {
    this.signals.push(signal);
    if (signal === "SIGKILL") this.exit(null, signal);
    return true;
  }
  exit(code: number | null, signal: NodeJS.Signals | null = null): void {
    [this.exitCode, this.signalCode] = [code, signal];
    this.emit("exit", code, signal);
  }
}

const options: SpawnOptions = { command: "claude", args: [], env: {}, signal: new AbortController().signal };

function started() {
  const child = new StandIn();
  const process = new ClaudeProcess(
    () => {},
    () => child as unknown as SpawnedProcess,
  );
  process.spawn(options);
  return { child, process };
}

afterEach(() => void vi.useRealTimers());

describe("ClaudeProcess.exited", () => {
  it("resolves once the process exits, not before, and sends it nothing", async () => {
    const { child, process } = started();
    let done = false;
    const exited = process.exited().then(() => (done = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(done).toBe(false);
    child.exit(0);
    await exited;
    expect(child.signals).toEqual([]);
  });

  it(`kills a process still there ${CLAUDE_EXIT_WAIT_MS} ms after the close (SIGKILL) and resolves`, async () => {
    vi.useFakeTimers();
    const { child, process } = started();
    const exited = process.exited();
    await vi.advanceTimersByTimeAsync(CLAUDE_EXIT_WAIT_MS);
    await exited;
    expect(child.signals).toEqual(["SIGKILL"]);
  });

  it("resolves at once for a process never started or already gone", async () => {
    await new ClaudeProcess(() => {}, undefined).exited();
    const { child, process } = started();
    child.exit(1);
    await process.exited();
    expect(child.signals).toEqual([]);
  });
});
