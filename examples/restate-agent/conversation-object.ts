// Conversations kept in Restate: a virtual object per conversation id holds its latest snapshot and
// version. Restate runs one exclusive handler per key at a time, so `put`'s version check and write are
// one step (one writer per conversation, across every service process), and the state is durable.
import * as restate from "@restatedev/restate-sdk";
import {
  ConversationConflictError,
  type ConversationStore,
  type RunSnapshot,
  type StoredConversation,
} from "entity-tools";

/** What `put` answers: the new version, or the version another writer left. */
type PutOutcome =
  { readonly ok: true; readonly version: number } | { readonly ok: false; readonly actual?: number };

export const conversationObject = restate.object({
  name: "Conversation",
  handlers: {
    get: restate.handlers.object.shared(
      async (ctx: restate.ObjectSharedContext): Promise<StoredConversation | null> =>
        (await ctx.get<StoredConversation>("conversation")) ?? null,
    ),
    put: async (
      ctx: restate.ObjectContext,
      input: { snapshot: RunSnapshot; expectedVersion?: number },
    ): Promise<PutOutcome> => {
      const actual = (await ctx.get<StoredConversation>("conversation"))?.version;
      if ((actual ?? 0) !== (input.expectedVersion ?? 0)) return { ok: false, actual };
      const version = (actual ?? 0) + 1;
      ctx.set<StoredConversation>("conversation", { snapshot: input.snapshot, version });
      return { ok: true, version };
    },
  },
});

/** How the store reaches one conversation's object: `ctx.objectClient` in a handler, or an ingress client. */
export type ConversationObjectClient = (conversationId: string) => {
  get(): PromiseLike<StoredConversation | null>;
  put(input: { snapshot: RunSnapshot; expectedVersion?: number }): PromiseLike<PutOutcome>;
};

/** The ConversationStore interface over the Conversation virtual object. */
export class RestateConversationStore implements ConversationStore {
  constructor(private readonly client: ConversationObjectClient) {}

  async get(conversationId: string): Promise<StoredConversation | undefined> {
    return (await this.client(conversationId).get()) ?? undefined;
  }

  async put(
    conversationId: string,
    snapshot: RunSnapshot,
    expectedVersion: number | undefined,
  ): Promise<number> {
    const outcome = await this.client(conversationId).put({ snapshot, expectedVersion });
    if (!outcome.ok) throw new ConversationConflictError(conversationId, expectedVersion, outcome.actual);
    return outcome.version;
  }
}
