// A cassette is checked against its schema before any of it plays, and once: `readCassette` and
// `parseCassette` check what they read and remember it here, so playing it (`ReplayLanguageModel`,
// `playCassette`) does not check it again, while a cassette built or copied by hand is checked when it is
// played. What is remembered is frozen, so it is still what was checked when it plays.
import type { Cassette } from "./cassette.js";
import { checkCassette } from "./cassette-schema.js";
import type { CassetteCut } from "./cassette-text.js";

/** What reading a cassette learnt: the file it came from, and what a cut at its end left out. */
export interface CassetteRead {
  readonly file?: string;
  readonly cut?: CassetteCut;
}

const reads = new WeakMap<object, CassetteRead>();

/** Remembers `cassette` as checked (and freezes it, so that it stays so). */
export function rememberChecked(cassette: Cassette, read: CassetteRead): void {
  reads.set(deepFreeze(cassette), read);
}

/**
 * What reading `cassette` learnt when `readCassette` or `parseCassette` gave it; otherwise (a cassette
 * built or copied by hand) checks it first.
 *
 * @throws CassetteError naming `file` when a cassette not read by this package does not fit the format.
 */
export function checkedOnce(cassette: Cassette, file: string): CassetteRead {
  const read = reads.get(cassette);
  if (read) return read;
  checkCassette(cassette, file);
  return {};
}

/** Freezes `value` and everything in it; with a list, not a recursion: a value nested 100 000 deep is JSON too. */
function deepFreeze<T>(value: T): T {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const item = pending.pop();
    if (typeof item !== "object" || item === null || Object.isFrozen(item)) continue;
    Object.freeze(item);
    for (const inner of Object.values(item)) pending.push(inner);
  }
  return value;
}
