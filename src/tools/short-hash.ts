const FNV_PRIME = 0x01000193;

/**
 * A short deterministic hash (8 base-36 characters, about 41 bits) of a string, from two FNV-1a passes
 * with different seeds. Used to keep altered or shortened tool names distinct; not for security.
 */
export function shortHash(text: string): string {
  let a = 0x811c9dc5;
  let b = 0x9747b28c;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, FNV_PRIME);
    b = Math.imul(b ^ c, 0x5bd1e995);
    b ^= b >>> 15;
  }
  const high = (a >>> 0) % 0x200000; // 21 bits
  const low = (b >>> 0) % 0x100000; // 20 bits
  return (high * 0x100000 + low).toString(36).padStart(8, "0");
}
