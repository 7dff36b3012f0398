// TC39 standard decorators (TypeScript without `experimentalDecorators`) record metadata on
// `context.metadata`, which TypeScript only passes when `Symbol.metadata` exists. Node has none yet, so
// this module defines it (the well-known `Symbol.for` name other polyfills use). It runs when
// entity-tools is imported, before any decorated class of the user's is defined.
const symbols = Symbol as { metadata?: symbol };
symbols.metadata ??= Symbol.for("Symbol.metadata");

/** `Symbol.metadata`, defined above when the runtime lacks it. */
export const METADATA: symbol = symbols.metadata;

/** The context argument of a standard decorator. */
export interface StandardContext {
  readonly kind: string;
  readonly name: string | symbol;
  readonly static?: boolean;
  readonly private?: boolean;
  readonly metadata?: Record<PropertyKey, unknown>;
  addInitializer?(initializer: (this: unknown) => void): void;
}

/** Whether decorator arguments are a standard decorator's `(value, context)` rather than a legacy one's. */
export function isStandardCall(args: readonly unknown[]): args is [unknown, StandardContext] {
  const context = args[1];
  return args.length === 2 && typeof context === "object" && context !== null && "kind" in context;
}

/**
 * What a class's own standard decorators recorded under `key` (not what its parent's did: a subclass's
 * metadata object inherits from its parent's, and an undecorated subclass has none of its own).
 */
export function ownStandardMetadata<T>(cls: Function, key: symbol): T | undefined {
  if (!Object.hasOwn(cls, METADATA)) return undefined;
  const metadata = (cls as unknown as Record<symbol, Record<symbol, unknown> | undefined>)[METADATA];
  return metadata && Object.hasOwn(metadata, key) ? (metadata[key] as T) : undefined;
}
