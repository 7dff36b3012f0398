const UNSAFE = new Set(["__proto__", "constructor", "prototype"]);

/** Deepest nesting of tool arguments we accept; real tool inputs are a few levels deep. */
export const MAX_INPUT_DEPTH = 64;

/**
 * What is wrong with the shape of tool arguments before schema validation, or undefined: a key that could
 * reach a prototype, a number JSON cannot carry (`1e999` parses to Infinity), or nesting past
 * {@link MAX_INPUT_DEPTH}. Iterative, so hostile nesting cannot overflow the stack.
 */
export function inputShapeProblem(value: unknown): string | undefined {
  const stack: { value: unknown; path: string; depth: number }[] = [{ value, path: "", depth: 0 }];
  while (stack.length > 0) {
    const { value: here, path, depth } = stack.pop()!;
    if (typeof here === "number" && !Number.isFinite(here)) {
      return `the value at "${path || "(root)"}" is not a finite number`;
    }
    if (typeof here !== "object" || here === null) continue;
    if (depth >= MAX_INPUT_DEPTH) return `the arguments are nested more than ${MAX_INPUT_DEPTH} levels deep`;
    for (const key of Object.keys(here)) {
      const at = path ? `${path}.${key}` : key;
      if (UNSAFE.has(key)) return `the key "${at}" is not allowed`;
      stack.push({ value: (here as Record<string, unknown>)[key], path: at, depth: depth + 1 });
    }
  }
  return undefined;
}
