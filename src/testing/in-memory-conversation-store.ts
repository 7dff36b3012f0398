import {
  checkConversationId,
  checkVersion,
  type ConversationStore,
  type StoredConversation,
} from "../loop/conversation-store-port.js";
import type { RunSnapshot } from "../loop/run-snapshot.js";
import { recordFromText, recordText } from "../loop/stored-snapshot-text.js";

/** Options of {@link InMemoryConversationStore}. */
export interface InMemoryConversationStoreOptions {
  /** A snapshot whose JSON is larger is refused (`ConversationTooLargeError`). Default 32 MiB. */
  readonly maxSnapshotBytes?: number;
}

/**
 * A {@link ConversationStore} in memory, for tests: it keeps JSON copies (what a real store would give
 * back) and checks versions as the durable stores do. Gone with the process.
 */
export class InMemoryConversationStore implements ConversationStore {
  private readonly conversations = new Map<string, { readonly json: string; readonly version: number }>();

  constructor(private readonly options: InMemoryConversationStoreOptions = {}) {}

  async get(conversationId: string): Promise<StoredConversation | undefined> {
    checkConversationId(conversationId);
    const stored = this.conversations.get(conversationId);
    return (
      stored && { ...recordFromText(conversationId, stored.json, "its stored copy"), version: stored.version }
    );
  }

  async put(
    conversationId: string,
    snapshot: RunSnapshot | undefined,
    expectedVersion: number | undefined,
    busyUntil?: number,
  ): Promise<number> {
    checkConversationId(conversationId);
    const json = recordText(conversationId, snapshot, busyUntil, this.options.maxSnapshotBytes);
    checkVersion(conversationId, expectedVersion, this.conversations.get(conversationId)?.version);
    const version = (expectedVersion ?? 0) + 1;
    this.conversations.set(conversationId, { json, version });
    return version;
  }
}
