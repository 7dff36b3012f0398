// How every store keeps a snapshot: its JSON text. JSON.stringify escapes what a database column could
// refuse (a NUL character becomes `\u0000`, a lone surrogate `\udXXX`), and the canonical JSON form is what
// a snapshot's signature covers, so a signed snapshot reads back verifiable. One size rule for every store,
// and one rule for whose snapshot it is: every write of a store goes through `snapshotText`.
import { ConversationTooLargeError, StoredConversationUnreadableError } from "./conversation-store-errors.js";
import { checkSnapshotConversation } from "../loop/snapshot/conversation-mismatch-error.js";
import type { RunSnapshot } from "../loop/snapshot/run-snapshot.js";

/** The default `maxSnapshotBytes` of the stores: 32 MiB of JSON. */
export const DEFAULT_MAX_SNAPSHOT_BYTES = 32 * 1024 * 1024;

/**
 * The stored text of a snapshot (`"null"` for the empty claim of a first turn), to be kept under
 * `conversationId`.
 *
 * @throws ConversationMismatchError (`at: "save"`) when the snapshot names another conversation, so that no
 * store keeps one conversation's history under another's key; ConversationTooLargeError when the text is
 * over `maxBytes` of UTF-8
 */
export function snapshotText(
  conversationId: string,
  snapshot: RunSnapshot | undefined,
  maxBytes: number = DEFAULT_MAX_SNAPSHOT_BYTES,
): string {
  checkSnapshotConversation(conversationId, snapshot, "save");
  const text = JSON.stringify(snapshot ?? null);
  // A character is at most 3 bytes of UTF-8 per UTF-16 unit: count exactly only near the limit.
  if (text.length * 3 > maxBytes) {
    const bytes = Buffer.byteLength(text, "utf8");
    if (bytes > maxBytes) throw new ConversationTooLargeError(conversationId, bytes, maxBytes);
  }
  return text;
}

/**
 * A stored snapshot's text read back; undefined for a first turn's claim.
 *
 * @throws StoredConversationUnreadableError naming the conversation and `where` (a file, a row) when the
 * text is not JSON (cut short) or not an object
 */
export function snapshotFromText(
  conversationId: string,
  text: string,
  where: string,
): RunSnapshot | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new StoredConversationUnreadableError(conversationId, where, (error as Error).message, {
      cause: error,
    });
  }
  if (value === null) return undefined;
  if (typeof value !== "object" || Array.isArray(value))
    throw new StoredConversationUnreadableError(conversationId, where, "it is not a JSON object");
  return value as RunSnapshot;
}

const TURN = "entity-tools/turn";

/**
 * The stored text of a write for a store that keeps one text per version (files, memory): the snapshot's
 * text, or, for a turn's claim, `{"entity-tools/turn": {"busyUntil": …}, "snapshot": …}`.
 *
 * @throws ConversationTooLargeError
 */
export function recordText(
  conversationId: string,
  snapshot: RunSnapshot | undefined,
  busyUntil: number | undefined,
  maxBytes?: number,
): string {
  const text = snapshotText(conversationId, snapshot, maxBytes);
  return busyUntil === undefined ? text : `{"${TURN}":{"busyUntil":${busyUntil}},"snapshot":${text}}`;
}

/**
 * A write's text read back (see {@link recordText}).
 *
 * @throws StoredConversationUnreadableError
 */
export function recordFromText(
  conversationId: string,
  text: string,
  where: string,
): { snapshot: RunSnapshot | undefined; busyUntil?: number } {
  const value = snapshotFromText(conversationId, text, where) as
    (RunSnapshot & { [TURN]?: { busyUntil?: unknown }; snapshot?: RunSnapshot | null }) | undefined;
  const turn = value?.[TURN];
  if (!turn) return { snapshot: value };
  const busyUntil = typeof turn.busyUntil === "number" ? turn.busyUntil : undefined;
  return { snapshot: value.snapshot ?? undefined, ...(busyUntil === undefined ? {} : { busyUntil }) };
}
