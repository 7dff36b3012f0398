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
// one: `plain-json-history.ts` refuses it). The same walk notes, at next to no cost, whatever may make a
// value not plain JSON (`watchedCopy`): a bigint, an object met twice, nesting near `MAX_JSON_DEPTH`, a
// class instance it does not go into; only then does `plain-json-history.ts` look for the exact place.
import { isJsonData, jsonDataText } from "./json-data.js";
import { MAX_JSON_DEPTH } from "./json-form-problem.js";

/**
 * A deep copy of `value` with what `structuredClone` would give for it, a URL kept a URL and a file's
 * bytes as bytes whose JSON form is base64.
 */
export function snapshotCopy<T>(value: T): T {
  return dataCopy(value, SNAPSHOT);
}

/** A snapshot copy, and whether its walk met anything that may not be plain JSON. */
export interface WatchedCopy<T> {
  readonly copy: T;
  /**
   * False when the value is surely plain JSON; true when it may not be (`jsonFormProblem` decides): it
   * holds a bigint, an object met twice (shared, which JSON allows, or a cycle), an object nested more
   * than `WATCHED_DEPTH` levels deep, or a value the walk copies whole but a Date (a class instance, a Map).
   */
  readonly suspect: boolean;
}

/**
 * The nesting, from the copied value, past which a watched copy is suspect: short of `MAX_JSON_DEPTH` by
 * a margin for where the value sits in what is checked (a history is `{ history }`'s, one level down).
 */
const WATCHED_DEPTH = MAX_JSON_DEPTH - 8;

/** {@link snapshotCopy}, and whether the value may not be plain JSON (see {@link WatchedCopy}). */
export function watchedCopy<T>(value: T): WatchedCopy<T> {
  if (typeof value !== "object" || value === null)
    return { copy: leafCopy(value) as T, suspect: typeof value === "bigint" };
  const walk = newWalk(SNAPSHOT);
  const copy = fill(value, walk);
  return { copy, suspect: walk.suspect };
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
  readonly other: (value: object, walk: Walk) => unknown;
  readonly freeze: boolean;
}

const SNAPSHOT: Copier = { leaf: leafCopy, other: otherCopy, freeze: false };
const FROZEN: Copier = { leaf: (value) => value, other: (value) => value, freeze: true };

function dataCopy<T>(value: T, copier: Copier): T {
  if (typeof value !== "object" || value === null) return copier.leaf(value) as T;
  return fill(value, newWalk(copier));
}

function newWalk(copier: Copier): Walk {
  return { copier, copies: new Map(), toFill: [], depth: 0, filled: [], suspect: false };
}

/** The copy of `value`, filled: every plain array and object in it, copied. */
function fill<T extends object>(value: T, walk: Walk): T {
  const copy = objectCopy(value, walk);
  const { toFill } = walk;
  while (toFill.length > 0) {
    walk.depth = (toFill.pop() as number) + 1;
    const target = toFill.pop() as object;
    const source = toFill.pop() as object;
    if (walk.depth > WATCHED_DEPTH) walk.suspect = true;
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
    if (walk.copier.freeze) walk.filled.push(target);
  }
  for (const target of walk.filled) Object.freeze(target);
  return copy as T;
}

/** A walk's state: the copy of each object met, the arrays and objects still to fill, what it noted. */
interface Walk {
  readonly copier: Copier;
  readonly copies: Map<object, unknown>;
  /**
   * Plain arrays and objects whose copies are still empty, each as three entries: the source, its copy and
   * its nesting (one array a walk, not three: most walks are a step's few messages, made at every step).
   */
  readonly toFill: (object | number)[];
  /** The nesting of the objects met now: the children of the source being filled. */
  depth: number;
  /** The copies filled, to freeze once all are (a frozen one could not be filled). */
  readonly filled: object[];
  /** Whether it met what may not be plain JSON (see `WatchedCopy`). */
  suspect: boolean;
}

function itemCopy(item: unknown, walk: Walk): unknown {
  if (typeof item !== "object" || item === null) {
    if (typeof item === "bigint") walk.suspect = true;
    return walk.copier.leaf(item);
  }
  const copy = walk.copies.get(item);
  if (copy === undefined) return objectCopy(item, walk);
  // Met twice: shared, or a cycle.
  walk.suspect = true;
  return copy;
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
    walk.toFill.push(value, copy as object, walk.depth);
  } else copy = walk.copier.other(value, walk);
  walk.copies.set(value, copy);
  return copy;
}

/**
 * A snapshot's copy of what is not plain: a URL as a URL; bytes as bytes with a JSON form; else
 * `structuredClone`, which the walk does not go into: suspect, unless a Date (kept a Date, which writes
 * itself); a class instance's copy is a plain object, without the class's `toJSON`, what the check goes into.
 */
function otherCopy(value: object, walk: Walk): unknown {
  if (isJsonData(value)) return value instanceof URL ? new URL(value.href) : jsonBytes(value);
  if (!(value instanceof Date)) walk.suspect = true;
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
