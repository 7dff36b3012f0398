// Marks every error of this library. `Symbol.for` is shared by every copy of the package in one process
// (a bundled copy next to an installed one, a build next to its sources), where `instanceof` is not.
const BRAND = Symbol.for("entity-tools.error");

type Branded = { readonly [BRAND]?: readonly string[] };

/**
 * Base of every error this library throws. Besides `instanceof`, each error class has a static
 * `isInstance(value)` that also recognises errors thrown by another copy of the package (the AI SDK's
 * pattern): `ToolLoopError.isInstance(e)` is true for a `ToolLoopError` or any subclass of it.
 *
 * Every class names itself in a static `errorName` string, which a minifier leaves alone (it renames
 * classes, so `Function.name` would be a mangled letter): `error.name` and `isInstance` use that string.
 * A subclass of your own declares `static override readonly errorName = "MyError"` the same way.
 */
export class EntityToolsError extends Error {
  /** This class's name, written out so that a minified bundle keeps it. */
  static readonly errorName: string = "EntityToolsError";

  /** The names of this error's classes, most derived first; what `isInstance` compares. */
  declare readonly [BRAND]: readonly string[];

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    const kinds: string[] = [];
    for (
      let c: Function | null = new.target;
      c && c !== Error;
      c = Object.getPrototypeOf(c) as Function | null
    ) {
      // Only a class's own name counts: a subclass that declares none answers to its parent's.
      if (Object.hasOwn(c, "errorName"))
        kinds.push((c as unknown as { readonly errorName: string }).errorName);
    }
    this.name = kinds[0] ?? EntityToolsError.errorName;
    Object.defineProperty(this, BRAND, { value: kinds, enumerable: false });
  }

  /** Whether `value` is an error of this class (or a subclass), from any copy of the package. */
  static isInstance<T extends EntityToolsError>(
    // The class it is called on: constructible, with its written-out name (public types only, inlined).
    this: (abstract new (...args: never[]) => T) & { readonly errorName: string },
    value: unknown,
  ): value is T {
    const kinds = typeof value === "object" && value !== null ? (value as Branded)[BRAND] : undefined;
    return Array.isArray(kinds) && kinds.includes(this.errorName);
  }
}

/** A setting was given a value the library cannot honour (negative, not a number, out of range). */
export class InvalidSettingError extends EntityToolsError {
  /** This class's name, written out so that a minified bundle keeps it. */
  static override readonly errorName: string = "InvalidSettingError";

  constructor(
    /** The setting, named as the caller wrote it (`withToolTimeout(ms)`, `maxIterations`). */
    readonly setting: string,
    /** The value given. */
    readonly value: unknown,
    /** What it must be, in words (`a whole number of at least 1`). */
    readonly expected: string,
  ) {
    super(`${setting} must be ${expected}, got ${describe(value)}`);
  }
}

function describe(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(value);
  // An object (a decision, an option bag) as its JSON: `String` of it reads `[object Object]`.
  if (typeof value === "object" && value !== null) {
    try {
      return JSON.stringify(value).slice(0, 200);
    } catch {
      return String(value); // a cycle or a bigint
    }
  }
  return String(value);
}
