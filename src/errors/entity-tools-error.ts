// Marks every error of this library. `Symbol.for` is shared by every copy of the package in one process
// (a bundled copy next to an installed one, a build next to its sources), where `instanceof` is not.
const BRAND = Symbol.for("entity-tools.error");

type Branded = { readonly [BRAND]?: readonly string[] };

/**
 * Base of every error this library throws. Besides `instanceof`, each error class has a static
 * `isInstance(value)` that also recognises errors thrown by another copy of the package (the AI SDK's
 * pattern): `ToolLoopError.isInstance(e)` is true for a `ToolLoopError` or any subclass of it.
 */
export class EntityToolsError extends Error {
  /** The names of this error's classes, most derived first; what `isInstance` compares. */
  declare readonly [BRAND]: readonly string[];

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
    const kinds: string[] = [];
    for (
      let c: Function | null = new.target;
      c && c !== Error;
      c = Object.getPrototypeOf(c) as Function | null
    )
      kinds.push(c.name);
    Object.defineProperty(this, BRAND, { value: kinds, enumerable: false });
  }

  /** Whether `value` is an error of this class (or a subclass), from any copy of the package. */
  static isInstance<T extends EntityToolsError>(
    this: abstract new (...args: never[]) => T,
    value: unknown,
  ): value is T {
    const kinds = typeof value === "object" && value !== null ? (value as Branded)[BRAND] : undefined;
    return Array.isArray(kinds) && kinds.includes(this.name);
  }
}

/** A setting was given a value the library cannot honour (negative, not a number, out of range). */
export class InvalidSettingError extends EntityToolsError {
  constructor(
    readonly setting: string,
    readonly value: unknown,
    readonly expected: string,
  ) {
    super(`${setting} must be ${expected}, got ${describe(value)}`);
  }
}

function describe(value: unknown): string {
  return typeof value === "string" ? JSON.stringify(value) : String(value);
}
