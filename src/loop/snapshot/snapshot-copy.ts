// The one copy of a run's user and model data (its conversation, its waiting calls, an approval's input):
// a snapshot's, made at the end of every run, and a resume's, made before anything of the snapshot runs;
// by the same walk, the prompt cache's frozen copy of a converted message (`frozenDataCopy`).
// `structuredClone` serializes and parses the whole history (about 1 ms for a 20-step run on a loaded
// machine, a fifth of the run's own cost); the history is almost all plain objects, arrays and strings,
// which a walk copies several times faster. A URL (an image or file by URL, the AI SDK's form) is copied
// as a URL: Node 20's structuredClone made it `{}`, Node 22's throws. A file's bytes are copied as bytes
// that write themselves in JSON as base64 (the snapshot's JSON form, which the AI SDK reads back as those
// bytes; a URL writes its text: the one rule of `json-data.ts`, which cassettes follow too). Any other
// value that is not plain data (a class instance) is copied by `structuredClone`. The walk keeps no stack
// of its own calls, so no history is too deep for it, and it copies an object met twice once, as
// structuredClone does: a shared part stays shared and a cycle is copied as a cycle (a snapshot never holds
// one: `plain-json-history.ts` refuses it first).
import { isJsonData, jsonDataText } from "./json-data.js";

/**
 * A deep copy of `value` with what `structuredClone` would give for it, a URL kept a URL and a file's
 * bytes as bytes whose JSON form is base64.
 */
export function snapshotCopy<T>(value: T): T {
  return dataCopy(value, SNAPSHOT);
}

/**
 * A frozen deep copy of `value`'s plain arrays and objects, anything else (a file's bytes or URL, a class
 * instance, a function) kept as it is: a converted prompt message the prompt cache hands the provider at
 * every later step. By the same walk: no value is too deep for it, and a cycle is copied as a cycle.
 */
export function frozenDataCopy<T>(value: T): T {
  return dataCopy(value, FROZEN);
}

/** How a copy treats what is not a plain array or object, and whether its copies are frozen. */
interface Copier {
  readonly leaf: (value: unknown) => unknown;
  readonly other: (value: object) => unknown;
  readonly freeze: boolean;
}

const SNAPSHOT: Copier = { leaf: leafCopy, other: otherCopy, freeze: false };
const FROZEN: Copier = { leaf: (value) => value, other: (value) => value, freeze: true };

function dataCopy<T>(value: T, copier: Copier): T {
  if (typeof value !== "object" || value === null) return copier.leaf(value) as T;
  const walk: Walk = { copier, copies: new Map(), sources: [], targets: [], filled: [] };
  const copy = objectCopy(value, walk);
  while (walk.sources.length > 0) {
    const source = walk.sources.pop()!;
    const target = walk.targets.pop()!;
    if (Array.isArray(source)) {
      const array = target as unknown[];
      for (let i = 0; i < source.length; i++) array[i] = itemCopy(source[i], walk);
    } else {
      for (const key of Object.keys(source))
        setData(
          target as Record<string, unknown>,
          key,
          itemCopy((source as Record<string, unknown>)[key], walk),
        );
    }
    if (copier.freeze) walk.filled.push(target);
  }
  for (const target of walk.filled) Object.freeze(target);
  return copy as T;
}

/** A walk's state: the copy of each object met, and the arrays and objects still to fill. */
interface Walk {
  readonly copier: Copier;
  readonly copies: Map<object, unknown>;
  /** Plain arrays and objects whose copies are still empty, and those copies, at the same index. */
  readonly sources: object[];
  readonly targets: object[];
  /** The copies filled, to freeze once all are (a frozen one could not be filled). */
  readonly filled: object[];
}

function itemCopy(item: unknown, walk: Walk): unknown {
  if (typeof item !== "object" || item === null) return walk.copier.leaf(item);
  // (an object's copy is never undefined)
  return walk.copies.get(item) ?? objectCopy(item, walk);
}

/** A primitive as it is; a function or a symbol refused as `structuredClone` refuses it. */
function leafCopy(value: unknown): unknown {
  return typeof value === "function" || typeof value === "symbol" ? structuredClone(value) : value;
}

/**
 * The copy of an object met for the first time: a plain array or object empty, to be filled by the walk;
 * anything else as the copier copies it.
 */
function objectCopy(value: object, walk: Walk): unknown {
  let copy: unknown;
  if (Array.isArray(value) || isPlainObject(value)) {
    // A plain array whatever the original's class (`map` would make a subclass's instance).
    copy = Array.isArray(value) ? new Array<unknown>(value.length) : {};
    walk.sources.push(value);
    walk.targets.push(copy as object);
  } else copy = walk.copier.other(value);
  walk.copies.set(value, copy);
  return copy;
}

/** A snapshot's copy of what is not plain: a URL as a URL; bytes as bytes with a JSON form; else `structuredClone`. */
function otherCopy(value: object): unknown {
  if (isJsonData(value)) return value instanceof URL ? new URL(value.href) : jsonBytes(value);
  return structuredClone(value);
}

/**
 * A copy of a file's bytes (`Uint8Array`, `Buffer`, `ArrayBuffer`: the AI SDK's data content): a plain
 * `Uint8Array` that writes itself in JSON as base64 (its own `toJSON`, not enumerable; the one rule of
 * `json-data.ts`), which the AI SDK reads back as the same bytes. Without it a `Uint8Array` becomes
 * `{"0":1,"1":2,…}` in JSON (ai 6 then refuses the prompt, ai 7 sends it as a provider reference).
 */
function jsonBytes(bytes: Uint8Array | ArrayBuffer): Uint8Array {
  const copy = new Uint8Array(bytes.byteLength);
  copy.set(bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes));
  Object.defineProperty(copy, "toJSON", { value: textOfThis });
  return copy;
}

function textOfThis(this: Uint8Array): string {
  return jsonDataText(this);
}

function isPlainObject(value: object): boolean {
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
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
