// TypeScript's watch API learns of changes through its `System`: file and directory watchers, and a
// timer that debounces a burst of changes into one update. A build tool has its own watcher and must
// regenerate before it transforms anything, not 250 ms later. This System gives TypeScript the same
// program updates on demand: `flush()` compares the watched files with what they were, tells TypeScript
// of those that changed, of files the build tool saw created or deleted, and runs the update at once.
// A file changed when its `fileStamp` did: its size, modified time, change time or inode. The modified
// time alone missed a file rewritten within one tick of a coarse clock, and one written with an old
// modified time (`cp -p`, a tool that restores it); the change time, which no one can set, moves at such a
// write, except within one tick of a file system whose change time is coarse too (FAT; ext4 and xfs
// before Linux 6.13, whose multigrain stamps give a write after a `stat` a finer time). Comparing content
// instead would read, at every flush, the program's whole text, lib and node_modules typings included.
import path from "node:path";
import type * as TS from "typescript";
import { fileStampOf } from "../local/file-stamp.js";
import ts from "./typescript.js";

/** A `System` whose watchers report when told to, and whose timers run when flushed. */
export interface OnDemandSystem {
  readonly system: TS.System;
  /** Tells the watchers what changed since the last flush, and runs the program update it causes now. */
  flush(): void;
  /** A file the build tool saw created or deleted (its own changes are found by `flush`). */
  notify(file: string, event: "create" | "update" | "delete"): void;
}

interface WatchedFile {
  readonly callback: TS.FileWatcherCallback;
  /** Its `fileStamp` at the last look; undefined when the file did not exist. */
  stamp: string | undefined;
}

interface WatchedDirectory {
  readonly callback: TS.DirectoryWatcherCallback;
  readonly recursive: boolean;
}

// A timer TypeScript schedules may schedule another (a resolution invalidated, then the program update).
const MAX_TIMER_ROUNDS = 8;

/** {@link OnDemandSystem} over the real file system. */
export function onDemandSystem(): OnDemandSystem {
  const files = new Map<string, Set<WatchedFile>>();
  const directories = new Map<string, Set<WatchedDirectory>>();
  const timers = new Map<number, () => void>();
  const listingChanges = new Set<string>(); // files created or deleted, for the directory watchers
  let nextTimer = 1;

  const watcher = <T>(map: Map<string, Set<T>>, key: string, entry: T): TS.FileWatcher => {
    const set = map.get(key) ?? new Set<T>();
    map.set(key, set.add(entry));
    return { close: () => void set.delete(entry) };
  };

  const system: TS.System = {
    ...ts.sys,
    watchFile: (file, callback) => watcher(files, path.resolve(file), { callback, stamp: fileStampOf(file) }),
    watchDirectory: (directory, callback, recursive) =>
      watcher(directories, path.resolve(directory), { callback, recursive: recursive ?? false }),
    setTimeout: (callback: (...args: unknown[]) => void, _ms: number, ...args: unknown[]) => {
      const id = nextTimer++;
      timers.set(id, () => callback(...args));
      return id;
    },
    clearTimeout: (id: number) => void timers.delete(id),
    // A configuration error is reported, and the process goes on (a build tool's process is not ours).
    exit: () => undefined,
  };

  const flush = (): void => {
    for (const [file, watchers] of files) {
      for (const watched of watchers) {
        const now = fileStampOf(file);
        if (now === watched.stamp) continue;
        const kind =
          now === undefined
            ? ts.FileWatcherEventKind.Deleted
            : watched.stamp === undefined
              ? ts.FileWatcherEventKind.Created
              : ts.FileWatcherEventKind.Changed;
        watched.stamp = now;
        watched.callback(file, kind);
      }
    }
    for (const file of listingChanges) {
      for (const [directory, watchers] of directories)
        for (const { callback, recursive } of watchers)
          if (contains(directory, file, recursive)) callback(file);
    }
    listingChanges.clear();
    for (let round = 0; round < MAX_TIMER_ROUNDS && timers.size > 0; round++) {
      const due = [...timers.values()];
      timers.clear();
      for (const run of due) run();
    }
  };

  const notify = (file: string, event: "create" | "update" | "delete"): void => {
    if (event !== "update") listingChanges.add(path.resolve(file));
  };

  return { system, flush, notify };
}

/** Whether `file` is in `directory` (directly, or at any depth when recursive). */
function contains(directory: string, file: string, recursive: boolean): boolean {
  const relative = path.relative(directory, file);
  if (relative === "" || relative.startsWith("..") || path.isAbsolute(relative)) return false;
  return recursive || !relative.includes(path.sep);
}
