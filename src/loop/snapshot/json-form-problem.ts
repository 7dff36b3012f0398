// Where a value has no JSON form: the first place `JSON.stringify` would refuse (a cycle, a bigint), found
// by a walk that keeps no stack of its own calls (a history may be deep), so that the error can name it.
// A part met twice outside a cycle is no problem (JSON writes it twice), and a value with its own `toJSON`
// (a URL, a date, a snapshot's bytes) writes itself: the walk does not go into it.

/** A place in a value, from its root: keys and array indexes. */
export type ValuePath = readonly (string | number)[];

/** What JSON cannot hold, and where. */
export interface JsonFormProblem {
  /** Where the value is. */
  readonly path: ValuePath;
  /** For a cycle, the enclosing object it refers back to; absent for a bigint. */
  readonly cycleTo?: ValuePath;
}

/** The first place in `value` that JSON has no form for, or undefined when it has one. */
export function jsonFormProblem(value: unknown): JsonFormProblem | undefined {
  // Entries to visit, and (as `exit`) the objects whose children are all visited: no longer enclosing.
  const stack: { readonly value: unknown; readonly path: ValuePath; readonly exit?: true }[] = [
    { value, path: [] },
  ];
  const enclosing = new Map<object, ValuePath>();
  while (stack.length > 0) {
    const { value: item, path, exit } = stack.pop()!;
    if (exit) {
      enclosing.delete(item as object);
      continue;
    }
    if (typeof item === "bigint") return { path };
    if (typeof item !== "object" || item === null || hasToJson(item)) continue;
    const cycleTo = enclosing.get(item);
    if (cycleTo) return { path, cycleTo };
    enclosing.set(item, path);
    stack.push({ value: item, path, exit: true });
    const keys = Array.isArray(item) ? item.keys() : Object.keys(item);
    for (const key of [...keys].reverse())
      stack.push({ value: (item as Record<string | number, unknown>)[key], path: [...path, key] });
  }
  return undefined;
}

function hasToJson(value: object): boolean {
  return typeof (value as { toJSON?: unknown }).toJSON === "function";
}

/** `path` as code would write it: `history[2].content[0].providerOptions.acme`. */
export function pathText(path: ValuePath): string {
  return path
    .map((key, i) =>
      typeof key === "number"
        ? `[${key}]`
        : /^[A-Za-z_$][\w$]*$/.test(key)
          ? `${i === 0 ? "" : "."}${key}`
          : `[${JSON.stringify(key)}]`,
    )
    .join("");
}
