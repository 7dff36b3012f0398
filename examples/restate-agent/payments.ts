// A stand-in for a payment system that honours idempotency keys (as real ones do): each key is paid at
// most once, and asking again with the same key returns the first payment. Kept in EFFECTS_FILE when set
// (one line per payment, key included: what the test counts), else in memory.
import { appendFileSync, existsSync, readFileSync } from "node:fs";

const paid = new Map<string, string>();

/** Pays `what` under `key` unless a payment with that key exists; returns the payment and whether it is new. */
export function payOnce(key: string, what: string): { readonly id: string; readonly first: boolean } {
  const file = process.env.EFFECTS_FILE;
  const marker = ` [key ${key}]`;
  const earlier =
    file && existsSync(file)
      ? readFileSync(file, "utf8")
          .split("\n")
          .find((l) => l.endsWith(marker))
      : paid.get(key);
  if (earlier) return { id: key, first: false };
  if (file) appendFileSync(file, `${what}${marker}\n`);
  else paid.set(key, what);
  return { id: key, first: true };
}
