// The one signing-key rule of entity-tools, shared by everything that signs: snapshots (withSnapshotKey),
// entity handles (handleKey) and the MCP server's approval questions. One key type, one minimum length,
// one rotation rule (the first key signs, any listed key verifies), and the only place random keys are
// drawn (the one key of the process, for whatever signs without a key given, and fresh ones on request).
import { InvalidSettingError } from "../errors/entity-tools-error.js";
import { nodeCrypto } from "../lazy/node-builtins.js";

/** A secret that signs: text (UTF-8) or bytes, at least 16 bytes (32 random bytes recommended). */
export type SigningKey = string | Uint8Array;

/** One key, or a list for rotation: the first signs, any of them verifies (`[newKey, oldKey]`). */
export type SigningKeys = SigningKey | readonly SigningKey[];

/** The shortest key accepted, in bytes. */
export const MIN_SIGNING_KEY_BYTES = 16;

const RANDOM_KEY_BYTES = 32;
let processKeys: KeyRing | undefined;

/** Checked keys as bytes, the signing key first: what signs and verifies. */
export class KeyRing {
  private constructor(private readonly keys: readonly Buffer[]) {}

  /**
   * The keys given to a setting (`withSnapshotKey`, `handleKey`), checked.
   *
   * @throws InvalidSettingError naming `setting`, for no key (an unset environment variable), an empty
   * list, or a key shorter than {@link MIN_SIGNING_KEY_BYTES}: the same error for every setting.
   */
  static of(setting: string, keys: SigningKeys | undefined): KeyRing {
    const list =
      keys === undefined ? [] : typeof keys === "string" || keys instanceof Uint8Array ? [keys] : keys;
    if (!Array.isArray(list) || list.length === 0)
      throw new InvalidSettingError(setting, keys, "a key or a non-empty list of keys");
    return new KeyRing(
      list.map((key: unknown) => {
        if (typeof key !== "string" && !(key instanceof Uint8Array))
          throw new InvalidSettingError(setting, key, "a key: text or bytes");
        const bytes = typeof key === "string" ? Buffer.from(key, "utf8") : Buffer.from(key);
        if (bytes.length < MIN_SIGNING_KEY_BYTES)
          throw new InvalidSettingError(
            setting,
            `a key of ${bytes.length} bytes`,
            `a key of at least ${MIN_SIGNING_KEY_BYTES} bytes (32 random bytes recommended)`,
          );
        return bytes;
      }),
    );
  }

  /** A fresh random key, for one holder whose signatures no other holder may accept. */
  static random(): KeyRing {
    return new KeyRing([nodeCrypto().randomBytes(RANDOM_KEY_BYTES)]);
  }

  /**
   * The random key of this process, drawn once: what is signed while serving one request (a fresh MCP
   * server or runner per request) is accepted while serving the next.
   */
  static processWide(): KeyRing {
    return (processKeys ??= KeyRing.random());
  }

  /** The MAC of `data` with the signing (first) key, cut to `bytes` bytes, in base64url. */
  sign(data: string, bytes?: number): string {
    return mac(this.keys[0]!, data, bytes).toString("base64url");
  }

  /** Whether any key of the ring made `signature` (base64url, `bytes` long) over `data`. */
  verify(data: string, signature: string, bytes?: number): boolean {
    const given = Buffer.from(signature, "base64url");
    // Only the canonical base64url spelling counts (what `sign` writes); compared in constant time.
    if (given.toString("base64url") !== signature) return false;
    return this.keys.some((key) => {
      const expected = mac(key, data, bytes);
      return expected.length === given.length && nodeCrypto().timingSafeEqual(expected, given);
    });
  }
}

function mac(key: Buffer, data: string, bytes: number | undefined): Buffer {
  const digest = nodeCrypto().createHmac("sha256", key).update(data).digest();
  return bytes === undefined ? digest : digest.subarray(0, bytes);
}
