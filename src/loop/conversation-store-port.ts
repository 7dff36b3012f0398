import { InvalidSettingError } from "../errors/entity-tools-error.js";
import { ConversationConflictError, InvalidConversationIdError } from "./conversation-store-errors.js";
import type { RunSnapshot } from "./run-snapshot.js";

/** A conversation as a store holds it: the latest snapshot and its version (1 for the first write). */
export interface StoredConversation {
  /** Undefined: a first turn claimed the id (`beginConversationTurn`) and has saved nothing yet. */
  readonly snapshot: RunSnapshot | undefined;
  readonly version: number;
  /**
   * Set while a turn runs (`beginConversationTurn`'s claim; its save clears it): until then (ms since the
   * epoch) another turn is refused. A store that does not keep it only loses that refusal.
   */
  readonly busyUntil?: number;
}

/**
 * Where conversations live between requests, by conversation id, with an optimistic version: a write
 * names the version it was based on, and only one write per version succeeds, so two requests for one
 * conversation cannot both write (the second gets `ConversationConflictError`).
 */
export interface ConversationStore {
  /** The conversation, or undefined when nothing was written under this id. */
  get(conversationId: string): Promise<StoredConversation | undefined>;
  /**
   * Writes `snapshot` if the stored version is still `expectedVersion` (undefined: nothing stored yet),
   * and returns the new version. An undefined `snapshot` claims the id for a first turn; `busyUntil` is
   * kept with the write (a turn's claim) and read back by `get`.
   *
   * @throws ConversationConflictError when another write came first; InvalidConversationIdError
   */
  put(
    conversationId: string,
    snapshot: RunSnapshot | undefined,
    expectedVersion: number | undefined,
    busyUntil?: number,
  ): Promise<number>;
}

const MAX_ID_BYTES = 180;

/**
 * The one rule for conversation ids, shared by every store: non-empty, at most 180 bytes of UTF-8.
 *
 * @throws InvalidConversationIdError
 */
export function checkConversationId(conversationId: string): void {
  if (typeof conversationId !== "string" || conversationId.length === 0)
    throw new InvalidConversationIdError(String(conversationId), "it is empty");
  if (Buffer.byteLength(conversationId, "utf8") > MAX_ID_BYTES)
    throw new InvalidConversationIdError(conversationId, `it is longer than ${MAX_ID_BYTES} bytes`);
}

/** One turn of a stored conversation, claimed: the snapshot to continue from, and where its result goes. */
export interface StoredConversationTurn {
  /** The conversation so far; undefined for a new one. */
  readonly snapshot: RunSnapshot | undefined;
  /**
   * Saves the turn's snapshot (its result's, or a failed run's error's).
   *
   * @throws ConversationConflictError when another turn of this conversation claimed it meanwhile
   */
  save(snapshot: RunSnapshot): Promise<void>;
  /**
   * Ends the turn without saving (it produced no snapshot): the conversation stays as it was and the next
   * turn may start at once. A `save` that fails (too large, the store down) releases too, when it can.
   */
  release(): Promise<void>;
}

/** Options of {@link beginConversationTurn}. */
export interface ConversationTurnOptions {
  /**
   * How long a turn holds its conversation at most (ms): a turn of a process that died before `save`
   * stops blocking the next one after this. Longer than a turn takes. Default 120 000 (two minutes).
   */
  readonly leaseMs?: number;
}

/** The default `leaseMs` of a conversation turn: two minutes. */
export const DEFAULT_TURN_LEASE_MS = 120_000;

/**
 * Starts a turn of a stored conversation: reads it and claims it (writes it again at the next version,
 * marked busy for `leaseMs`) before anything runs. Another turn of the conversation that starts before
 * this one saves gets `ConversationConflictError` and runs nothing, from any process: of two requests
 * that read the same version only one can claim it, and a request that reads a claimed conversation is
 * refused. That keeps a paused run from being resumed twice (an approved call would run twice) and a
 * double-submitted first message from running twice (a new conversation is claimed too, with no
 * snapshot). A turn that dies before `save` leaves the conversation as its last saved turn: the next turn
 * starts from it once the lease has run out.
 *
 * @throws ConversationConflictError
 */
export async function beginConversationTurn(
  store: ConversationStore,
  conversationId: string,
  options: ConversationTurnOptions = {},
): Promise<StoredConversationTurn> {
  const leaseMs = options.leaseMs ?? DEFAULT_TURN_LEASE_MS;
  if (!(Number.isFinite(leaseMs) && leaseMs > 0))
    throw new InvalidSettingError("beginConversationTurn leaseMs", leaseMs, "a positive number of ms");
  const stored = await store.get(conversationId);
  const now = Date.now();
  if (stored?.busyUntil !== undefined && stored.busyUntil > now)
    throw new ConversationConflictError(conversationId, stored.version, stored.version, stored.busyUntil);
  let version = await store.put(conversationId, stored?.snapshot, stored?.version, now + leaseMs);
  const release = async () => {
    version = await store.put(conversationId, stored?.snapshot, version);
  };
  return {
    snapshot: stored?.snapshot,
    save: async (snapshot) => {
      try {
        version = await store.put(conversationId, snapshot, version);
      } catch (error) {
        // Another turn took over: the conversation is not ours to release.
        if (!ConversationConflictError.isInstance(error)) await release().catch(() => {});
        throw error;
      }
    },
    release,
  };
}

/** Throws the conflict of a write based on `expected` when the store is at `actual`. */
export function checkVersion(
  conversationId: string,
  expected: number | undefined,
  actual: number | undefined,
): void {
  if ((expected ?? 0) !== (actual ?? 0))
    throw new ConversationConflictError(conversationId, expected, actual);
}
