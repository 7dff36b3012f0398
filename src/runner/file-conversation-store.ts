// The embedded default ConversationStore: files, with no dependency. Each write is a new file named after
// its version, created with link(2), which fails when the name exists: of two writers of one version
// exactly one wins, also across processes, and a reader never sees a half-written file (the content is
// complete before it gets its name). Why files rather than SQLite: see docs/conversations.md.
import { randomUUID } from "node:crypto";
import { link, mkdir, open, readdir, readFile, unlink } from "node:fs/promises";
import path from "node:path";
import { ConversationConflictError } from "../loop/conversation-store-errors.js";
import {
  checkConversationId,
  checkVersion,
  type ConversationStore,
  type StoredConversation,
} from "../loop/conversation-store-port.js";
import type { RunSnapshot } from "../loop/run-snapshot.js";

const VERSION_FILE = /^(\d{12})\.json$/;

/**
 * A {@link ConversationStore} in a directory (one folder per conversation, one file per version; older
 * versions are removed as newer ones land): it survives a restart, and several processes may share the
 * directory on one machine's local disk.
 */
export class FileConversationStore implements ConversationStore {
  /** @param directory created when missing */
  constructor(readonly directory: string) {}

  async get(conversationId: string): Promise<StoredConversation | undefined> {
    const folder = this.folderOf(conversationId);
    for (;;) {
      const version = await latestVersion(folder);
      if (version === undefined) return undefined;
      try {
        const json = await readFile(path.join(folder, fileOf(version)), "utf8");
        return { snapshot: JSON.parse(json) as RunSnapshot, version };
      } catch (error) {
        if (!isCode(error, "ENOENT")) throw error; // a newer write removed it meanwhile: read that one
      }
    }
  }

  async put(
    conversationId: string,
    snapshot: RunSnapshot,
    expectedVersion: number | undefined,
  ): Promise<number> {
    const folder = this.folderOf(conversationId);
    await mkdir(folder, { recursive: true });
    checkVersion(conversationId, expectedVersion, await latestVersion(folder));
    const version = (expectedVersion ?? 0) + 1;
    const temporary = path.join(folder, `.${randomUUID()}.tmp`);
    const file = await open(temporary, "wx");
    try {
      await file.writeFile(JSON.stringify(snapshot), "utf8");
      await file.sync();
    } finally {
      await file.close();
    }
    try {
      await link(temporary, path.join(folder, fileOf(version)));
    } catch (error) {
      if (isCode(error, "EEXIST"))
        throw new ConversationConflictError(conversationId, expectedVersion, await latestVersion(folder));
      throw error;
    } finally {
      await unlink(temporary);
    }
    if (expectedVersion !== undefined && expectedVersion > 1)
      await unlink(path.join(folder, fileOf(expectedVersion - 1))).catch(() => {}); // keep the one before
    return version;
  }

  /** The conversation's folder: its id in base64url, so any id is a safe file name. */
  private folderOf(conversationId: string): string {
    checkConversationId(conversationId);
    return path.join(this.directory, Buffer.from(conversationId, "utf8").toString("base64url"));
  }
}

async function latestVersion(folder: string): Promise<number | undefined> {
  let names: string[];
  try {
    names = await readdir(folder);
  } catch (error) {
    if (isCode(error, "ENOENT")) return undefined;
    throw error;
  }
  let latest: number | undefined;
  for (const name of names) {
    const match = VERSION_FILE.exec(name);
    if (match) latest = Math.max(latest ?? 0, Number(match[1]));
  }
  return latest;
}

const fileOf = (version: number) => `${String(version).padStart(12, "0")}.json`;

function isCode(error: unknown, code: string): boolean {
  return typeof error === "object" && error !== null && (error as { code?: unknown }).code === code;
}
