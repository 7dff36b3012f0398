// Where a runner (or an MCP server) keeps its run log: the folder is checked once, when it is configured,
// so a folder that cannot be written fails there, before any run; each run then gets a file of its own.
import { closeSync, statSync, unlinkSync } from "node:fs";
import path from "node:path";
import { InvalidSettingError } from "../errors/entity-tools-error.js";
import { nodeCrypto } from "../lazy/node-builtins.js";
import type { Pricing } from "../events/pricing.js";
import { RUN_LOG_FORMAT, RUN_LOG_VERSION, type RunLogKind } from "./run-log-format.js";
import { RunLogError } from "./run-log-error.js";
import { RunLogFile } from "./run-log-file.js";
import { loggedPrompt } from "./run-log-prompt.js";
import {
  DEFAULT_RUN_LOG_MAX_BYTES,
  defaultMaxValueChars,
  type ResolvedRunLogTarget,
  type RunLogOptions,
} from "./run-log-options.js";

export type { RunLogOptions };
import { RunLogRecorder } from "./run-log-recorder.js";
import { createPrivateFileSync, makePrivateFolderSync, warnIfShared } from "../local/private-files.js";

/**
 * Folders found writable in this process: an MCP server made per HTTP request checks its folder once, not
 * at every request (a folder that stops being writable later is a `RunLogWarning` at the run's first write).
 */
const checked = new Set<string>();

/**
 * The run log's settings with `dir` made absolute and every default filled in (the one place they are),
 * after checking that the folder can be written (it is created for its owner only when missing).
 *
 * @throws RunLogError for a folder that cannot be created or written; InvalidSettingError for a bad
 * `maxFileBytes` or `maxValueChars`
 */
export function runLogTarget(dir: string, options: RunLogOptions = {}): ResolvedRunLogTarget {
  const { maxFileBytes = DEFAULT_RUN_LOG_MAX_BYTES, recordContent = true } = options;
  if (!(Number.isSafeInteger(maxFileBytes) && maxFileBytes > 0))
    throw new InvalidSettingError(
      "withRunLog maxFileBytes",
      maxFileBytes,
      "a positive whole number of bytes",
    );
  const { maxValueChars = defaultMaxValueChars(maxFileBytes) } = options;
  if (!(Number.isSafeInteger(maxValueChars) && maxValueChars > 0))
    throw new InvalidSettingError(
      "withRunLog maxValueChars",
      maxValueChars,
      "a positive whole number of characters",
    );
  if (typeof dir !== "string" || dir.length === 0) throw new RunLogError(String(dir), "no folder was given");
  const resolved = path.resolve(dir);
  const target = { dir: resolved, recordContent, maxFileBytes, maxValueChars };
  if (checked.has(resolved)) return target;
  try {
    makePrivateFolderSync(resolved);
    if (!statSync(resolved).isDirectory()) throw new RunLogError(resolved, "it is not a folder");
    // Permission bits do not tell (root ignores them, a read-only mount does not show in them): a file is
    // created and removed.
    const probe = path.join(
      resolved,
      `.write-check-${process.pid}-${nodeCrypto().randomBytes(4).toString("hex")}`,
    );
    closeSync(createPrivateFileSync(probe));
    unlinkSync(probe);
  } catch (error) {
    if (RunLogError.isInstance(error)) throw error;
    throw new RunLogError(resolved, error instanceof Error ? error.message : String(error), error);
  }
  checked.add(resolved);
  void warnIfShared(resolved, "run logs (what users told the model)");
  return target;
}

/** How one logged run starts. */
export interface RunLogStart {
  /** The run's id (its events' `runId`, what its snapshots name): the file's name and its header's `id`. */
  readonly id: string;
  readonly kind: RunLogKind;
  /** The messages the run starts with. */
  readonly prompt?: unknown;
  readonly system?: string;
  /** The run a resumed or continued run goes on from: the `id` its snapshot names. */
  readonly continues?: string;
  /** The stored conversation the run is a turn of, when it has one. */
  readonly conversationId?: string | undefined;
  readonly pricing?: Pricing;
  /** An MCP server's tool list, read at each call. */
  readonly offered?: () => readonly string[];
  /** Told once when the file cannot be written further (the run goes on). */
  readonly onFailure: (file: string, message: string) => void;
}

/** Starts the file of one run in `target.dir`, named by its id (which begins with the time: names sort by time). */
export function startRunLog(target: ResolvedRunLogTarget, start: RunLogStart): RunLogRecorder {
  const now = new Date();
  const { id } = start;
  const file = new RunLogFile({
    dir: target.dir,
    id,
    limitBytes: target.maxFileBytes,
    keepOpen: start.kind !== "mcp",
    onFailure: (message) => start.onFailure(file.path, message),
  });
  const content = target.recordContent;
  return new RunLogRecorder(file, {
    header: {
      type: "run",
      format: RUN_LOG_FORMAT,
      version: RUN_LOG_VERSION,
      id,
      kind: start.kind,
      startedAt: now.toISOString(),
      recordContent: content,
      ...(start.continues === undefined ? {} : { continues: start.continues }),
      ...(start.conversationId === undefined ? {} : { conversationId: start.conversationId }),
      ...(content && start.prompt !== undefined ? { prompt: loggedPrompt(start.prompt, file) } : {}),
      ...(content && start.system !== undefined ? { system: start.system } : {}),
    },
    maxValueChars: target.maxValueChars,
    ...(start.pricing ? { pricing: start.pricing } : {}),
    ...(start.offered ? { offered: start.offered } : {}),
  });
}
