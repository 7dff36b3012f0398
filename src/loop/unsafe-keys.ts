const UNSAFE = new Set(["__proto__", "constructor", "prototype"]);

/** The dotted path of the first key anywhere in `value` that could reach a prototype, if any. */
export function findUnsafeKey(value: unknown, path = ""): string | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  for (const key of Object.keys(value)) {
    const here = path ? `${path}.${key}` : key;
    if (UNSAFE.has(key)) return here;
    const nested = findUnsafeKey((value as Record<string, unknown>)[key], here);
    if (nested) return nested;
  }
  return undefined;
}
