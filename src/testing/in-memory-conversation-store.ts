import {
  checkConversationId,
  checkVersion,
  type ConversationStore,
  type StoredConversation,
} from "../loop/conversation-store-port.js";
import type { RunSnapshot } from "../loop/run-snapshot.js";

/**
 * A {@link ConversationStore} in memory, for tests: it keeps JSON copies (what a real store would give
 * back) and checks versions as the durable stores do. Gone with the process.
 */
export class InMemoryConversationStore implements ConversationStore {
  private readonly conversations = new Map<string, { readonly json: string; readonly version: number }>();

  async get(conversationId: string): Promise<StoredConversation | undefined> {
    checkConversationId(conversationId);
    const stored = this.conversations.get(conversationId);
    return stored && { snapshot: JSON.parse(stored.json) as RunSnapshot, version: stored.version };
  }

  async put(
    conversationId: string,
    snapshot: RunSnapshot,
    expectedVersion: number | undefined,
  ): Promise<number> {
    checkConversationId(conversationId);
    checkVersion(conversationId, expectedVersion, this.conversations.get(conversationId)?.version);
    const version = (expectedVersion ?? 0) + 1;
    this.conversations.set(conversationId, { json: JSON.stringify(snapshot), version });
    return version;
  }
}
