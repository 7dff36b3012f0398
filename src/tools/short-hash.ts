import { nodeCrypto } from "../lazy/node-builtins.js";

const HASH_BYTES = 10; // 80 bits: a collision cannot be searched for on a laptop (≈2^40 tries)
export const SHORT_HASH_LENGTH = 16; // 36^16 > 2^80

/**
 * A short deterministic hash of a string: 80 bits of SHA-256 in 16 base-36 characters. Used to keep
 * altered, shortened or disambiguated tool names distinct.
 */
export function shortHash(text: string): string {
  const digest = nodeCrypto().createHash("sha256").update(text).digest();
  let value = 0n;
  for (const byte of digest.subarray(0, HASH_BYTES)) value = (value << 8n) | BigInt(byte);
  return value.toString(36).padStart(SHORT_HASH_LENGTH, "0");
}
