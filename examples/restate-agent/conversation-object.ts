// Conversations kept in Restate: a virtual object per conversation id holds its latest snapshot and
// version. Restate runs one exclusive handler per key at a time, so `put`'s version check and write are
// one step (one writer per conversation, across every service process), and the state is durable. The
// object keeps the snapshot as the text every store of entity-tools keeps (`snapshotText`), so this store
// has their rules: another conversation's snapshot is refused before anything is sent, and so is one
// over the size cap.
import * as restate from "@restatedev/restate-sdk";
import {
  ConversationConflictError,
  type ConversationStore,
  type RunSnapshot,
  type StoredConversation,
} from "entity-tools";
import { snapshotFromText, snapshotText } from "entity-tools/building-blocks";

/** A conversation as the object keeps it: the snapshot's text (`"null"` for a first turn's claim). */
export interface StoredText {
  readonly text: string;
  readonly version: number;
}

/** What `put` answers: the new version, or the version another writer left. */
export type PutOutcome =
  { readonly ok: true; readonly version: number } | { readonly ok: false; readonly actual?: number };

export const conversationObject = restate.object({
  name: "Conversation",
  handlers: {
    get: restate.handlers.object.shared(
      async (ctx: restate.ObjectSharedContext): Promise<StoredText | null> =>
        (await ctx.get<StoredText>("conversation")) ?? null,
    ),
    put: async (
      ctx: restate.ObjectContext,
      input: { text: string; expectedVersion?: number },
    ): Promise<PutOutcome> => {
      const actual = (await ctx.get<StoredText>("conversation"))?.version;
      if ((actual ?? 0) !== (input.expectedVersion ?? 0)) return { ok: false, actual };
      const version = (actual ?? 0) + 1;
      ctx.set<StoredText>("conversation", { text: input.text, version });
      return { ok: true, version };
    },
  },
});

/** How the store reaches one conversation's object: `ctx.objectClient` in a handler, or an ingress client. */
export type ConversationObjectClient = (conversationId: string) => {
  get(): PromiseLike<StoredText | null>;
  put(input: { text: string; expectedVersion?: number }): PromiseLike<PutOutcome>;
};

/** The ConversationStore interface over the Conversation virtual object. */
export class RestateConversationStore implements ConversationStore {
  constructor(private readonly client: ConversationObjectClient) {}

  async get(conversationId: string): Promise<StoredConversation | undefined> {
    const stored = await this.client(conversationId).get();
    if (!stored) return undefined;
    const where = `the Restate object Conversation/${conversationId}`;
    return { snapshot: snapshotFromText(conversationId, stored.text, where), version: stored.version };
  }

  /** @throws ConversationMismatchError, ConversationTooLargeError (nothing sent), ConversationConflictError */
  async put(
    conversationId: string,
    snapshot: RunSnapshot | undefined,
    expectedVersion: number | undefined,
  ): Promise<number> {
    const text = snapshotText(conversationId, snapshot);
    const outcome = await this.client(conversationId).put({ text, expectedVersion });
    if (!outcome.ok) throw new ConversationConflictError(conversationId, expectedVersion, outcome.actual);
    return outcome.version;
  }
}
