// The embedded default ConversationStore: files, with no dependency. Each write is a new file named after
// its version, created with link(2), which fails when the name exists: of two writers of one version
// exactly one wins, also across processes, and a reader never sees a half-written file (the content is
// complete before it gets its name). A live turn renews its claim in a lease file beside the claim's
// version (`000000000007.lease`), replaced whole by rename(2), so the version stays. Everything is made
// for the owner only (folders 0700, files 0600). Why files rather than SQLite: see docs/conversation-stores.md.
import path from "node:path";
import { nodeCrypto, nodeFs } from "../lazy/node-builtins.js";
import { createPrivateFile, makePrivateFolder, warnIfShared } from "../local/private-files.js";
import { ConversationConflictError, storeFailure } from "./conversation-store-errors.js";
import {
  checkConversationId,
  checkVersion,
  type ConversationStore,
  type StoredConversation,
} from "./conversation-store-port.js";
import type { RunSnapshot } from "../loop/snapshot/run-snapshot.js";
import { recordFromText, recordText } from "./stored-snapshot-text.js";

const VERSION_FILE = /^(\d{12})\.json$/;
const LEASE_FILE = /^\d{12}\.lease$/;
const TEMPORARY_FILE = /^\.[0-9a-f-]{36}\.tmp$/;
/** A temporary file older than this is a crashed writer's: a live write lasts milliseconds. */
const STALE_TEMPORARY_MS = 10 * 60_000;

/** Options of {@link FileConversationStore}. */
export interface FileConversationStoreOptions {
  /** A snapshot whose JSON is larger is refused (`ConversationTooLargeError`). Default 32 MiB. */
  readonly maxSnapshotBytes?: number | undefined;
}

/**
 * A {@link ConversationStore} in a directory (one folder per conversation, one file per version; older
 * versions are removed as newer ones land): it survives a restart, and several processes may share the
 * directory on one machine's local disk. Its folders and files are readable by their owner only. On its
 * first use it removes the temporary files a writer that crashed mid-write left behind (those older than
 * ten minutes: younger ones may be another process's), and warns when other users may enter the directory.
 */
export class FileConversationStore implements ConversationStore {
  private opened: Promise<void> | undefined;

  /** @param directory created when missing */
  constructor(
    /** The directory that holds the conversations, one folder each. */
    readonly directory: string,
    private readonly options: FileConversationStoreOptions = {},
  ) {}

  /** The conversation, or undefined when nothing was written under this id. */
  get(conversationId: string): Promise<StoredConversation | undefined> {
    return this.guarded(this.read(conversationId));
  }

  /** Writes `snapshot` as the next version if the store is at `expectedVersion`; returns the new one. */
  put(
    conversationId: string,
    snapshot: RunSnapshot | undefined,
    expectedVersion: number | undefined,
    busyUntil?: number,
  ): Promise<number> {
    return this.guarded(this.write(conversationId, snapshot, expectedVersion, busyUntil));
  }

  /** Moves a turn's claim to end at `busyUntil` if the conversation is still at `version` (else false). */
  renewTurn(conversationId: string, version: number, busyUntil: number): Promise<boolean> {
    return this.guarded(this.renew(conversationId, version, busyUntil));
  }

  /** A failure of the disk (full, gone, not ours) is ConversationStoreUnavailableError naming the directory. */
  private guarded<T>(work: Promise<T>): Promise<T> {
    return work.catch((error: unknown) => {
      throw storeFailure(`files in ${this.directory}`, error);
    });
  }

  private async read(conversationId: string): Promise<StoredConversation | undefined> {
    const folder = this.folderOf(conversationId);
    await this.open();
    for (;;) {
      const version = await latestVersion(folder);
      if (version === undefined) return undefined;
      const file = path.join(folder, fileOf(version));
      let json: string;
      try {
        json = await nodeFs().readFile(file, "utf8");
      } catch (error) {
        if (isCode(error, "ENOENT")) continue; // a newer write removed it meanwhile: read that one
        throw error;
      }
      const record = recordFromText(conversationId, json, `the file ${file}`);
      const renewed = record.busyUntil === undefined ? undefined : await leaseIn(folder, version);
      return renewed === undefined ? { ...record, version } : { ...record, version, busyUntil: renewed };
    }
  }

  private async write(
    conversationId: string,
    snapshot: RunSnapshot | undefined,
    expectedVersion: number | undefined,
    busyUntil?: number,
  ): Promise<number> {
    const folder = this.folderOf(conversationId);
    const text = recordText(conversationId, snapshot, busyUntil, this.options.maxSnapshotBytes);
    await this.open();
    await makePrivateFolder(folder);
    const before = await listFolder(folder);
    checkVersion(conversationId, expectedVersion, before.latest);
    const version = (expectedVersion ?? 0) + 1;
    const temporary = await writeTemporary(folder, text, true);
    try {
      await nodeFs().link(temporary, path.join(folder, fileOf(version)));
    } catch (error) {
      if (isCode(error, "EEXIST"))
        throw new ConversationConflictError(conversationId, expectedVersion, await latestVersion(folder));
      throw error;
    } finally {
      // Best effort: once linked the write has landed, and a leftover is swept on a later first use.
      await nodeFs()
        .unlink(temporary)
        .catch(() => {});
    }
    // Older versions' leases are over (a turn's, or one a lapsed turn renewed late); the version before
    // the one this write replaced goes too (the one before is kept).
    const stale = [...before.leases, ...(version > 2 ? [fileOf(version - 2)] : [])];
    await Promise.all(
      stale.map((name) =>
        nodeFs()
          .unlink(path.join(folder, name))
          .catch(() => {}),
      ),
    );
    return version;
  }

  private async renew(conversationId: string, version: number, busyUntil: number): Promise<boolean> {
    const folder = this.folderOf(conversationId);
    await this.open();
    if ((await latestVersion(folder)) !== version) return false;
    // A lease is worth nothing after a crash of the machine (the claim's own end still holds): no fsync.
    const temporary = await writeTemporary(folder, String(busyUntil), false);
    await nodeFs().rename(temporary, path.join(folder, leaseOf(version)));
    return true;
  }

  /** Once per store: the crashed writers' temporary files go (best effort: a failure only leaves them). */
  private open(): Promise<void> {
    this.opened ??= Promise.all([
      removeStaleTemporaries(this.directory).catch(() => {}),
      warnIfShared(this.directory, "stored conversations"),
    ]).then(() => {});
    return this.opened;
  }

  /** The conversation's folder: its id in base64url, so any id is a safe file name. */
  private folderOf(conversationId: string): string {
    checkConversationId(conversationId);
    return path.join(this.directory, Buffer.from(conversationId, "utf8").toString("base64url"));
  }
}

/** A new temporary file in `folder` holding `text` (synced to disk when `durable`); its path. */
async function writeTemporary(folder: string, text: string, durable: boolean): Promise<string> {
  const temporary = path.join(folder, `.${nodeCrypto().randomUUID()}.tmp`);
  const file = await createPrivateFile(temporary);
  try {
    await file.writeFile(text, "utf8");
    if (durable) await file.sync();
  } finally {
    await file.close();
  }
  return temporary;
}

/** The end of a renewed claim of `version`, or undefined when it was not renewed (or the file is torn). */
async function leaseIn(folder: string, version: number): Promise<number | undefined> {
  const text = await nodeFs()
    .readFile(path.join(folder, leaseOf(version)), "utf8")
    .catch(() => "");
  const busyUntil = Number(text);
  return text !== "" && Number.isFinite(busyUntil) ? busyUntil : undefined;
}

async function removeStaleTemporaries(directory: string): Promise<void> {
  const folders = await nodeFs()
    .readdir(directory)
    .catch(() => [] as string[]);
  for (const name of folders) {
    const folder = path.join(directory, name);
    const entries = await nodeFs()
      .readdir(folder)
      .catch(() => [] as string[]);
    for (const entry of entries.filter((e) => TEMPORARY_FILE.test(e))) {
      const file = path.join(folder, entry);
      const info = await nodeFs()
        .stat(file)
        .catch(() => undefined);
      if (info && Date.now() - info.mtimeMs > STALE_TEMPORARY_MS)
        await nodeFs()
          .unlink(file)
          .catch(() => {});
    }
  }
}

/** A conversation folder's latest version, and its lease files. */
async function listFolder(folder: string): Promise<{ latest: number | undefined; leases: string[] }> {
  let names: string[];
  try {
    names = await nodeFs().readdir(folder);
  } catch (error) {
    if (isCode(error, "ENOENT")) return { latest: undefined, leases: [] };
    throw error;
  }
  let latest: number | undefined;
  for (const name of names) {
    const match = VERSION_FILE.exec(name);
    if (match) latest = Math.max(latest ?? 0, Number(match[1]));
  }
  return { latest, leases: names.filter((name) => LEASE_FILE.test(name)) };
}

async function latestVersion(folder: string): Promise<number | undefined> {
  return (await listFolder(folder)).latest;
}

const fileOf = (version: number) => `${String(version).padStart(12, "0")}.json`;
const leaseOf = (version: number) => `${String(version).padStart(12, "0")}.lease`;

function isCode(error: unknown, code: string): boolean {
  return typeof error === "object" && error !== null && (error as { code?: unknown }).code === code;
}
