import { InvalidSettingError } from "../errors/entity-tools-error.js";
import {
  ConversationConflictError,
  ConversationTooLargeError,
  InvalidConversationIdError,
} from "./conversation-store-errors.js";
import {
  checkSnapshotConversation,
  ConversationMismatchError,
} from "../loop/snapshot/conversation-mismatch-error.js";
import type { RunSnapshot } from "../loop/snapshot/run-snapshot.js";

/** A conversation as a store holds it: the latest snapshot and its version (1 for the first write). */
export interface StoredConversation {
  /** Undefined: a first turn claimed the id (`beginConversationTurn`) and has saved nothing yet. */
  readonly snapshot: RunSnapshot | undefined;
  /** The version of the latest write, from 1; the next write names it as `expectedVersion`. */
  readonly version: number;
  /**
   * Set while a turn runs (`beginConversationTurn`'s claim, moved on by `renewTurn`; its save clears it):
   * until then (ms since the epoch) another turn is refused. A store that does not keep it only loses that
   * refusal.
   */
  readonly busyUntil?: number | undefined;
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
   * @throws ConversationConflictError when another write came first; InvalidConversationIdError;
   * ConversationMismatchError (`at: "save"`), writing nothing, for a snapshot that names another conversation
   * (`RunSnapshot.conversationId`; one that names none is kept under any id)
   */
  put(
    conversationId: string,
    snapshot: RunSnapshot | undefined,
    expectedVersion: number | undefined,
    busyUntil?: number,
  ): Promise<number>;
  /**
   * Moves the claim a turn wrote at `version` (a write with `busyUntil`) to end at `busyUntil`, without a
   * new version, if the conversation is still at `version`; whether it was (false: another turn took the
   * conversation over). Optional: with it, `beginConversationTurn` renews a live turn's claim (a
   * heartbeat), so the lease can be short; without it, a claim lasts its lease and no longer.
   */
  renewTurn?(conversationId: string, version: number, busyUntil: number): Promise<boolean>;
}

const MAX_ID_BYTES = 180;
/** A NUL (PostgreSQL's text refuses it) or a lone surrogate (not a character: UTF-8 turns it into U+FFFD). */
const UNKEEPABLE = /[\0\p{Cs}]/u;

/**
 * The one rule for conversation ids, shared by every store and checked before one is touched: a non-empty
 * string of whole Unicode characters, without NUL, at most 180 bytes of UTF-8. Every store keeps every id
 * the rule lets through, distinct from every other; the rest is refused by all of them alike.
 *
 * @throws InvalidConversationIdError
 */
export function checkConversationId(conversationId: string): void {
  if (typeof conversationId !== "string" || conversationId.length === 0)
    throw new InvalidConversationIdError(String(conversationId), "it is empty");
  if (Buffer.byteLength(conversationId, "utf8") > MAX_ID_BYTES)
    throw new InvalidConversationIdError(conversationId, `it is longer than ${MAX_ID_BYTES} bytes`);
  const bad = UNKEEPABLE.exec(conversationId)?.[0];
  if (bad === "\0") throw new InvalidConversationIdError(conversationId, "it holds a NUL character (U+0000)");
  if (bad !== undefined)
    throw new InvalidConversationIdError(
      conversationId,
      `it holds a lone surrogate (U+${bad.charCodeAt(0).toString(16).toUpperCase()}), half of a character`,
    );
}

/** One turn of a stored conversation, claimed: the snapshot to continue from, and where its result goes. */
export interface StoredConversationTurn {
  /** The conversation so far; undefined for a new one. */
  readonly snapshot: RunSnapshot | undefined;
  /**
   * Saves the turn's snapshot (its result's, or a failed run's error's).
   *
   * @throws ConversationConflictError when another turn of this conversation claimed it meanwhile;
   * ConversationMismatchError, saving nothing and ending the turn, for a snapshot that names another
   * conversation (`RunSnapshot.conversationId`: a run that went on from another conversation's snapshot)
   */
  save(snapshot: RunSnapshot): Promise<void>;
  /**
   * Ends the turn without saving (it produced no snapshot): the conversation stays as it was and the next
   * turn may start at once. A `save` that fails (too large, the store down) releases too, when it can.
   * After a `save` that landed, a release, or when another turn took the conversation over, it does
   * nothing: call it in a `finally`.
   */
  release(): Promise<void>;
}

/** Options of {@link beginConversationTurn}. */
export interface ConversationTurnOptions {
  /**
   * How long a claim lasts unless it is renewed (ms). While the turn's process lives, the claim is renewed
   * every third of this (a store with `renewTurn`: every store of this package), so a turn of any length
   * keeps it; a turn whose process died stops blocking the next one within this. Default 15 000. A store
   * without `renewTurn` cannot renew: its claim lasts `leaseMs`, which must then outlast a turn (default
   * 120 000).
   */
  readonly leaseMs?: number | undefined;
  /** The clock claims are timed by, in ms since the epoch. Default `Date.now`; tests move it. */
  readonly clock?: (() => number) | undefined;
}

/** The default `leaseMs` of a conversation turn: 15 s, renewed while the turn's process lives. */
export const DEFAULT_TURN_LEASE_MS = 15_000;
/** The default `leaseMs` on a store that cannot renew a claim (no `renewTurn`): two minutes. */
const FIXED_TURN_LEASE_MS = 120_000;

/**
 * Starts a turn of a stored conversation: reads it and claims it (writes it again at the next version,
 * marked busy for `leaseMs`) before anything runs, and renews the claim until the turn saves or releases.
 * Another turn of the conversation that starts before this one saves gets `ConversationConflictError`
 * (with `retryAfterMs`) and runs nothing, from any process: of two requests that read the same version
 * only one can claim it, and a request that reads a claimed conversation is refused. That keeps a paused
 * run from being resumed twice (an approved call would run twice) and a double-submitted first message
 * from running twice (a new conversation is claimed too, with no snapshot). A turn whose process dies
 * before `save` leaves the conversation as its last saved turn: the next turn starts from it once the
 * claim, no longer renewed, has run out. End every turn with `save` or `release`: until then it is held.
 *
 * @throws ConversationConflictError; InvalidConversationIdError before the store is touched;
 * ConversationTooLargeError (`at: "start"`) when the stored conversation is over the store's limit;
 * ConversationMismatchError (`at: "start"`) when its stored snapshot names another conversation
 */
export async function beginConversationTurn(
  store: ConversationStore,
  conversationId: string,
  options: ConversationTurnOptions = {},
): Promise<StoredConversationTurn> {
  checkConversationId(conversationId);
  const renew = store.renewTurn?.bind(store);
  const leaseMs = options.leaseMs ?? (renew ? DEFAULT_TURN_LEASE_MS : FIXED_TURN_LEASE_MS);
  if (!(Number.isFinite(leaseMs) && leaseMs > 0))
    throw new InvalidSettingError("beginConversationTurn leaseMs", leaseMs, "a positive number of ms");
  const clock = options.clock ?? Date.now;
  const stored = await store.get(conversationId);
  const now = clock();
  refuseIfBusy(conversationId, stored, now);
  let version: number;
  try {
    version = await store.put(conversationId, stored?.snapshot, stored?.version, now + leaseMs);
  } catch (error) {
    // Another turn claimed it between our read and our claim: say that a turn is in progress, and until
    // when, as to a turn that read its claim (a lost write's "retry now" would only be refused again).
    if (ConversationConflictError.isInstance(error))
      refuseIfBusy(conversationId, await store.get(conversationId).catch(() => undefined), clock());
    // The claim writes the stored snapshot again: refused, it is itself over the limit (lowered since).
    if (ConversationTooLargeError.isInstance(error))
      throw new ConversationTooLargeError(conversationId, error.bytes, error.maxBytes, "start");
    // Likewise a stored snapshot of another conversation (kept before stores refused one): nothing ran.
    if (ConversationMismatchError.isInstance(error))
      throw new ConversationMismatchError(conversationId, error.snapshotConversationId, "start");
    throw error;
  }
  const claim = version;
  const heartbeat = renew && beat(() => renew(conversationId, claim, clock() + leaseMs), leaseMs / 3);
  // Saved, released, or taken over by another turn: the conversation is no longer this turn's to free.
  // A release after that does nothing (it would write the snapshot the turn began with over its save).
  let ended = false;
  const release = async () => {
    if (ended) return;
    await heartbeat?.stop();
    try {
      version = await store.put(conversationId, stored?.snapshot, version);
    } catch (error) {
      if (!ConversationConflictError.isInstance(error)) throw error;
    }
    ended = true;
  };
  return {
    snapshot: stored?.snapshot,
    save: async (snapshot) => {
      try {
        checkSnapshotConversation(conversationId, snapshot, "save");
      } catch (error) {
        await release(); // another conversation's snapshot: this one stays as it was, free for its next turn
        throw error;
      }
      await heartbeat?.stop();
      try {
        version = await store.put(conversationId, snapshot, version);
        ended = true;
      } catch (error) {
        ended ||= ConversationConflictError.isInstance(error);
        if (!ended && (await landed(store, conversationId, version, snapshot))) {
          [version, ended] = [version + 1, true];
          return;
        }
        await release().catch(() => {});
        throw error;
      }
    },
    release,
  };
}

/**
 * Whether a write of `snapshot` based on `version` landed although the store reported a failure (the
 * connection cut after the database committed it): the conversation is one version on, free, and holds
 * exactly that snapshot. Read again, so that a caller told "not saved" does not send the turn twice; false
 * when the store cannot tell (still down).
 */
async function landed(
  store: ConversationStore,
  conversationId: string,
  version: number,
  snapshot: RunSnapshot,
): Promise<boolean> {
  const now = await store.get(conversationId).catch(() => undefined);
  return (
    now?.version === version + 1 &&
    now.busyUntil === undefined &&
    JSON.stringify(now.snapshot) === JSON.stringify(snapshot)
  );
}

/** Throws the conflict of a turn refused at its start when another turn's claim on the conversation holds at `now`. */
function refuseIfBusy(conversationId: string, stored: StoredConversation | undefined, now: number): void {
  if (stored?.busyUntil !== undefined && stored.busyUntil > now)
    throw new ConversationConflictError(
      conversationId,
      stored.version,
      stored.version,
      stored.busyUntil,
      Math.ceil(stored.busyUntil - now),
    );
}

/**
 * Calls `renew` every `everyMs` until stopped or a renewal says the claim is gone. A renewal that fails
 * (the store down for a moment) is tried again at the next beat; one still on its way skips a beat. The
 * timer never keeps the process alive: a process with nothing else to do has no turn to hold.
 */
function beat(renew: () => Promise<boolean>, everyMs: number): { stop(): Promise<void> } {
  let renewing: Promise<void> | undefined;
  const timer = setInterval(() => {
    renewing ??= Promise.resolve()
      .then(renew) // a store's renewTurn that throws at once fails this beat only, never the process
      .then(
        (held) => {
          if (!held) clearInterval(timer); // another turn has the conversation: its save will say so
        },
        () => {},
      )
      .finally(() => (renewing = undefined));
  }, everyMs);
  timer.unref();
  return {
    stop: async () => {
      clearInterval(timer);
      await renewing; // a renewal on its way lands before the turn's last write
    },
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
