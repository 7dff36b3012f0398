// The one place a snapshot is signed and where every path that reads one (resume, continueFrom) checks
// it before anything runs. The signature is an HMAC-SHA-256 over the snapshot's canonical form: its JSON
// form (what survives JSON.stringify/JSON.parse, a store, a cookie) with object keys sorted, the
// signature itself left out. Several keys may verify (rotation); the first one signs. Any other check of
// a snapshot read back (its shape, its fields) belongs in `readSnapshot` too, after the signature.
import { KeyRing, type SigningKey, type SigningKeys } from "../../tools/signing-key.js";
import { canonicalJson } from "./canonical-json.js";
import type { RunSnapshot } from "./run-snapshot.js";
import { checkRunSnapshot } from "./run-snapshot-schema.js";
import { SnapshotIntegrityError } from "./snapshot-integrity-error.js";

/** A secret that signs snapshots: the one signing-key type (text or bytes, at least 16 bytes). */
export type SnapshotKey = SigningKey;

const SCHEME = "hmac-sha256:";

/**
 * Checks the keys given to `withSnapshotKey` (the one signing-key rule, see `KeyRing.of`).
 *
 * @throws InvalidSettingError for no key (an unset environment variable), an empty list or a short key.
 */
export function snapshotKeys(keys: SigningKeys | undefined): KeyRing {
  return KeyRing.of("withSnapshotKey", keys);
}

/**
 * `snapshot` with its signature (made with the first key); unchanged without keys. Its history is plain
 * JSON (`plain-json-history.ts`, checked when it is written), so it has a JSON form to sign.
 */
export function signSnapshot(snapshot: RunSnapshot, keys: KeyRing | undefined): RunSnapshot {
  if (!keys) return snapshot;
  const { signature: _old, ...content } = snapshot;
  return { ...content, signature: SCHEME + keys.sign(canonicalJson(content)) };
}

/**
 * A snapshot as every reading path takes it: with keys, refused unless one of them signed exactly this
 * content (without keys the caller trusts where it came from); then checked whole against its JSON
 * schema (`run-snapshot-schema.ts`).
 *
 * @throws SnapshotIntegrityError naming what failed, SnapshotError for a snapshot of the wrong shape or
 * version, before anything of the run happens.
 */
export function readSnapshot(value: unknown, keys: KeyRing | undefined): RunSnapshot {
  if (keys) checkSignature(value, keys);
  checkRunSnapshot(value);
  return value;
}

/** @throws SnapshotIntegrityError unless one of `keys` signed exactly this content. */
function checkSignature(value: unknown, keys: KeyRing): void {
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw new SnapshotIntegrityError("not-an-object");
  const { signature, ...content } = value as { signature?: unknown };
  if (typeof signature !== "string" || !signature.startsWith(SCHEME))
    throw new SnapshotIntegrityError("unsigned");
  if (!keys.verify(canonicalJson(content), signature.slice(SCHEME.length)))
    throw new SnapshotIntegrityError("altered");
}
