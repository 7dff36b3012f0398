// A snapshot's copy of the run's conversation, made at the end of every run. `structuredClone` serializes
// and parses the whole history (about 1 ms for a 20-step run on a loaded machine, a fifth of the run's own
// cost); the history is almost all plain objects, arrays and strings, which a walk copies several times
// faster. What is not plain data (a file's bytes, a class instance) is copied by `structuredClone`, as
// before, and a URL as a URL (structuredClone cannot); a history too deep for the walk, or with a cycle,
// is copied by `structuredClone` whole.

/** How deep the walk goes before leaving the copy to `structuredClone` (far below the stack's limit). */
const MAX_DEPTH = 200;

/** Thrown inside the walk when it gives the copy up; never leaves {@link snapshotCopy}. */
const GIVE_UP = Symbol("give up");

/** A deep copy of `value` with what `structuredClone` would give for it (plain data copied by a walk). */
export function snapshotCopy<T>(value: T): T {
  try {
    return copyOf(value, 0, new Set()) as T;
  } catch (error) {
    if (error !== GIVE_UP) throw error;
    return structuredClone(value);
  }
}

function copyOf(value: unknown, depth: number, ancestors: Set<object>): unknown {
  // (a function or a symbol: `structuredClone` refuses it, and says so the same way as before)
  if (typeof value === "function" || typeof value === "symbol") throw GIVE_UP;
  if (typeof value !== "object" || value === null) return value;
  if (depth > MAX_DEPTH || ancestors.has(value)) throw GIVE_UP;
  const isArray = Array.isArray(value);
  const proto: unknown = Object.getPrototypeOf(value);
  if (!isArray && proto !== Object.prototype && proto !== null) {
    // An image or file by URL (the AI SDK's form): Node 20's structuredClone made it `{}`, Node 22's throws.
    if (value instanceof URL) return new URL(value.href);
    return structuredClone(value);
  }
  ancestors.add(value);
  let copy: unknown;
  if (isArray) {
    // A plain array whatever the original's class (`map` would make a subclass's instance).
    const items = value as unknown[];
    const array: unknown[] = new Array<unknown>(items.length);
    for (let i = 0; i < items.length; i++) array[i] = copyOf(items[i], depth + 1, ancestors);
    copy = array;
  } else {
    const object: Record<string, unknown> = {};
    for (const key of Object.keys(value)) {
      setData(object, key, copyOf((value as Record<string, unknown>)[key], depth + 1, ancestors));
    }
    copy = object;
  }
  ancestors.delete(value);
  return copy;
}

/**
 * Sets `object[key]` to `value` as an own data property, also for the key `"__proto__"`: an own
 * `"__proto__"` key (parsed tool input) is data, and assigning it would set the object's prototype.
 */
export function setData(object: Record<string, unknown>, key: string, value: unknown): void {
  if (key === "__proto__")
    Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
  else object[key] = value;
}
