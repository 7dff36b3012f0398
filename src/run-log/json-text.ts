// A value as the run log writes it: JSON text, with a bigint (which JSON.stringify refuses) as its digits.
import { bigintAsDigits } from "../tools/bigint-as-digits.js";

/**
 * `value` as JSON text (undefined where JSON leaves a field out: undefined, a function), a bigint written
 * as its digits.
 *
 * @throws TypeError for what JSON cannot hold at all (a cycle)
 */
export function toJson(value: unknown): string | undefined {
  try {
    return JSON.stringify(value);
  } catch {
    // The rare value JSON refuses: again, with bigints as text (a cycle fails again).
  }
  return JSON.stringify(value, (_key, inner: unknown) => bigintAsDigits(inner));
}
