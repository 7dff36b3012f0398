// How every JSON text this library writes holds a bigint, which JSON.stringify refuses: as its digits, a
// string (a JSON number would lose the digits past 2^53). One rule for what the model sees of a tool's result
// (serialize-result.ts), the run log's records (run-log/json-text.ts) and a cassette (testing/replay).

/** `value` as it is, or a bigint as its digits (`12345678901234567890n` → `"12345678901234567890"`). */
export function bigintAsDigits(value: unknown): unknown {
  return typeof value === "bigint" ? value.toString() : value;
}
