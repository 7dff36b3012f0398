import {
  checkConversationId,
  checkVersion,
  type ConversationStore,
  type StoredConversation,
} from "../conversations/conversation-store-port.js";
import type { RunSnapshot } from "../loop/snapshot/run-snapshot.js";
import { snapshotFromText, snapshotText } from "../conversations/stored-snapshot-text.js";

/** Options of {@link InMemoryConversationStore}. */
export interface InMemoryConversationStoreOptions {
  /** A snapshot whose JSON is larger is refused (`ConversationTooLargeError`). Default 32 MiB. */
  readonly maxSnapshotBytes?: number | undefined;
}

interface Kept {
  readonly json: string;
  readonly version: number;
  busyUntil: number | undefined;
}

/**
 * A {@link ConversationStore} in memory, for tests: it keeps JSON copies (what a real store would give
 * back) and checks versions as the durable stores do. Gone with the process.
 */
export class InMemoryConversationStore implements ConversationStore {
  private readonly conversations = new Map<string, Kept>();

  constructor(private readonly options: InMemoryConversationStoreOptions = {}) {}

  /** The conversation, or undefined when nothing was written under this id. */
  async get(conversationId: string): Promise<StoredConversation | undefined> {
    checkConversationId(conversationId);
    const kept = this.conversations.get(conversationId);
    if (!kept) return undefined;
    const { json, version, busyUntil } = kept;
    const snapshot = snapshotFromText(conversationId, json, "its stored copy");
    return busyUntil === undefined ? { snapshot, version } : { snapshot, version, busyUntil };
  }

  /** Writes `snapshot` as the next version if the store is at `expectedVersion`; returns the new one. */
  async put(
    conversationId: string,
    snapshot: RunSnapshot | undefined,
    expectedVersion: number | undefined,
    busyUntil?: number,
  ): Promise<number> {
    checkConversationId(conversationId);
    const json = snapshotText(conversationId, snapshot, this.options.maxSnapshotBytes);
    checkVersion(conversationId, expectedVersion, this.conversations.get(conversationId)?.version);
    const version = (expectedVersion ?? 0) + 1;
    this.conversations.set(conversationId, { json, version, busyUntil });
    return version;
  }

  /** Moves a turn's claim to end at `busyUntil` if the conversation is still at `version` (else false). */
  async renewTurn(conversationId: string, version: number, busyUntil: number): Promise<boolean> {
    checkConversationId(conversationId);
    const kept = this.conversations.get(conversationId);
    if (kept?.version !== version || kept.busyUntil === undefined) return false;
    kept.busyUntil = busyUntil;
    return true;
  }
}
