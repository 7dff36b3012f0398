// One value's JSON form with every object's keys sorted: the same text for the same JSON content, whatever
// order its keys were written in (a store's, a model's). A snapshot's signature is made over it, and
// `scoreToolUse` compares an expected input field with the call's by it.

/** The JSON form of `value` (what survives JSON.stringify/JSON.parse) with every object's keys sorted. */
export function canonicalJson(value: unknown): string {
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
