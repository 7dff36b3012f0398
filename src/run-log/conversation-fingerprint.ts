// How the run log puts a conversation's turns together without an id the caller must invent: a run that
// ends writes a fingerprint of its conversation (the history its snapshot holds), and a run that goes on
// from a snapshot (`resume`, `continueFrom`) writes the fingerprint of that snapshot's history. Equal
// fingerprints link the two, across processes too, since every store keeps a snapshot as its JSON text.
// The fingerprint is of that JSON text as it is (one pass, which a run's end can afford; a canonical form
// with sorted keys cost ten times more): a store that reorders object keys, or a history holding objects
// with integer-like keys, which JSON.parse reorders, leaves the turns unlinked, shown as runs of their own,
// never linked wrongly. Two conversations identical so far cannot be told apart by any fingerprint.
import { nodeCrypto } from "../lazy/node-builtins.js";

/** The fingerprint of a conversation's history: `sha256:` and 22 characters of base64url. */
export function conversationFingerprint(history: readonly unknown[]): string {
  const digest = nodeCrypto().createHash("sha256").update(JSON.stringify(history)).digest("base64url");
  return `sha256:${digest.slice(0, 22)}`;
}

/** The fingerprint of a snapshot's history; undefined for what is not a snapshot (it fails the run anyway). */
export function snapshotFingerprint(snapshot: unknown): string | undefined {
  const history = (snapshot as { history?: unknown } | undefined)?.history;
  if (!Array.isArray(history)) return undefined;
  try {
    return conversationFingerprint(history);
  } catch {
    return undefined;
  }
}
