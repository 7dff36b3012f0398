// The one place a snapshot is signed and where every path that reads one (resume, continueFrom) checks
// it before anything runs. The signature is an HMAC-SHA-256 over the snapshot's canonical form: its JSON
// form (what survives JSON.stringify/JSON.parse, a store, a cookie) with object keys sorted, the
// signature itself left out. Several keys may verify (rotation); the first one signs. Any other check of
// a snapshot read back (its shape, its fields) belongs in `readSnapshot` too, after the signature.
import { createHmac, timingSafeEqual } from "node:crypto";
import { InvalidSettingError } from "../errors/entity-tools-error.js";
import type { RunSnapshot } from "./run-snapshot.js";
import { SnapshotIntegrityError } from "./snapshot-integrity-error.js";

/** A secret that signs snapshots: text (UTF-8) or bytes, at least 16 bytes (32 random bytes recommended). */
export type SnapshotKey = string | Uint8Array;

const SCHEME = "hmac-sha256:";
const MIN_KEY_BYTES = 16;

/**
 * Checks the keys given to `withSnapshotKey` and returns them as bytes, the signing key first.
 *
 * @throws InvalidSettingError for no key (an unset environment variable), an empty list or a short key.
 */
export function snapshotKeys(keys: SnapshotKey | readonly SnapshotKey[] | undefined): readonly Buffer[] {
  const list =
    keys === undefined ? [] : typeof keys === "string" || keys instanceof Uint8Array ? [keys] : keys;
  if (list.length === 0)
    throw new InvalidSettingError("withSnapshotKey", keys, "a key or a non-empty list of keys");
  return list.map((key) => {
    const bytes = typeof key === "string" ? Buffer.from(key, "utf8") : Buffer.from(key);
    if (bytes.length < MIN_KEY_BYTES)
      throw new InvalidSettingError(
        "withSnapshotKey",
        `a key of ${bytes.length} bytes`,
        `a key of at least ${MIN_KEY_BYTES} bytes (32 random bytes recommended)`,
      );
    return bytes;
  });
}

/** `snapshot` with its signature (made with the first key); unchanged without keys. */
export function signSnapshot(snapshot: RunSnapshot, keys: readonly Buffer[] | undefined): RunSnapshot {
  if (!keys || keys.length === 0) return snapshot;
  const { signature: _old, ...content } = snapshot;
  return { ...content, signature: SCHEME + mac(keys[0]!, content) };
}

/**
 * A snapshot as every reading path takes it: with keys, refused unless one of them signed exactly this
 * content; without keys, taken as it is (the caller trusts where it came from).
 *
 * @throws SnapshotIntegrityError naming what failed, before anything of the run happens.
 */
export function readSnapshot(value: unknown, keys: readonly Buffer[] | undefined): RunSnapshot {
  if (!keys || keys.length === 0) return value as RunSnapshot;
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw new SnapshotIntegrityError("not-an-object");
  const { signature, ...content } = value as { signature?: unknown };
  if (typeof signature !== "string" || !signature.startsWith(SCHEME))
    throw new SnapshotIntegrityError("unsigned");
  const given = Buffer.from(signature.slice(SCHEME.length), "base64url");
  const trusted = keys.some((key) => {
    const expected = Buffer.from(mac(key, content), "base64url");
    return expected.length === given.length && timingSafeEqual(expected, given);
  });
  if (!trusted) throw new SnapshotIntegrityError("altered");
  return value as RunSnapshot;
}

function mac(key: Buffer, content: unknown): string {
  return createHmac("sha256", key).update(canonicalJson(content)).digest("base64url");
}

/** The JSON form of `value` with every object's keys sorted: the same text for the same content. */
function canonicalJson(value: unknown): string {
  return JSON.stringify(sorted(JSON.parse(JSON.stringify(value)) as unknown));
}

function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sorted);
  if (typeof value !== "object" || value === null) return value;
  // fromEntries defines own properties: a "__proto__" key stays data, covered by the signature.
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, sorted((value as Record<string, unknown>)[key])]),
  );
}
