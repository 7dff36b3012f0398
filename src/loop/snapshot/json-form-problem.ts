// Where a value has no JSON form: the first place `JSON.stringify` would refuse (a cycle, a bigint) or
// that is nested deeper than every reader of it can go (`JSON.stringify` and `JSON.parse` overflow the
// stack a few thousand levels down, the AI SDK's prompt validation near 1 500), found by a walk that keeps
// no stack of its own calls, so that the error can name it. The one rule for a run's history (what a
// provider is sent and a snapshot holds) and a cassette. A part met twice outside a cycle is no problem
// (JSON writes it twice); a value with its own `toJSON` (a date, a snapshot's bytes) and a file's bytes or
// a URL (`json-data.ts`) write themselves: the walk does not go into them.
import { isJsonData } from "./json-data.js";

/** A place in a value, from its root: keys and array indexes. */
export type ValuePath = readonly (string | number)[];

/**
 * The deepest nesting a value may have, in keys from its root: far more than real data has (a provider's
 * metadata is a few levels deep), and far from where a reader overflows, whatever stack the caller has.
 */
export const MAX_JSON_DEPTH = 512;

/** What JSON cannot hold, and where. */
export interface JsonFormProblem {
  /** Where the value is. */
  readonly path: ValuePath;
  /** A cycle, a bigint, or an object nested more than {@link MAX_JSON_DEPTH} levels deep. */
  readonly kind: "cycle" | "bigint" | "depth";
  /** For a cycle, the enclosing object it refers back to. */
  readonly cycleTo?: ValuePath;
}

/** What else a caller's JSON form holds. */
export interface JsonFormOptions {
  /** Objects written in a form of their own, not gone into (a cassette's dates and errors). */
  readonly leaf?: (value: object) => boolean;
  /** Whether a bigint has a form (a cassette writes it as text). */
  readonly bigints?: boolean;
  /** Where the value is in what is written: the paths a problem names start with it. */
  readonly at?: ValuePath;
}

/** A place the walk visits: its value, and the place it is in (the path is made only for a problem). */
interface Place {
  readonly value: unknown;
  readonly parent: Place | undefined;
  readonly key: string | number;
  readonly depth: number;
  /** Set on the entry that closes an object: its children are all visited, it no longer encloses. */
  readonly exit?: true;
}

/** The first place in `value` that JSON has no form for, or undefined when it has one. */
export function jsonFormProblem(value: unknown, options: JsonFormOptions = {}): JsonFormProblem | undefined {
  const at = options.at ?? [];
  const stack: Place[] = [{ value, parent: undefined, key: "", depth: 0 }];
  const enclosing = new Map<object, Place>();
  while (stack.length > 0) {
    const place = stack.pop()!;
    const item = place.value;
    if (place.exit) {
      enclosing.delete(item as object);
      continue;
    }
    if (typeof item === "bigint") {
      if (options.bigints) continue;
      return { path: pathOf(place, at), kind: "bigint" };
    }
    if (typeof item !== "object" || item === null || writesItself(item, options)) continue;
    const cycleTo = enclosing.get(item);
    if (cycleTo) return { path: pathOf(place, at), kind: "cycle", cycleTo: pathOf(cycleTo, at) };
    if (place.depth > MAX_JSON_DEPTH) return { path: pathOf(place, at), kind: "depth" };
    enclosing.set(item, place);
    stack.push({ ...place, exit: true });
    const keys = Array.isArray(item) ? [...item.keys()] : Object.keys(item);
    const depth = place.depth + 1;
    for (let i = keys.length - 1; i >= 0; i--) {
      const key = keys[i]!;
      stack.push({ value: (item as Record<string | number, unknown>)[key], parent: place, key, depth });
    }
  }
  return undefined;
}

function writesItself(value: object, options: JsonFormOptions): boolean {
  return (
    typeof (value as { toJSON?: unknown }).toJSON === "function" ||
    isJsonData(value) ||
    options.leaf?.(value) === true
  );
}

function pathOf(place: Place, root: ValuePath): ValuePath {
  const path: (string | number)[] = [];
  for (let at: Place | undefined = place; at?.parent; at = at.parent) path.push(at.key);
  return [...root, ...path.reverse()];
}

/** What is wrong at `problem`, its places as code writes them (see {@link pathText}). */
export function problemText(problem: JsonFormProblem): string {
  const where = pathText(problem.path);
  if (problem.kind === "cycle") return `${where} refers back to ${pathText(problem.cycleTo!)} (a cycle)`;
  if (problem.kind === "bigint") return `${where} is a bigint`;
  return `${where} is nested more than ${MAX_JSON_DEPTH} levels deep`;
}

/** The keys a path's text shows before it is cut with `…`: a too deep path has hundreds. */
const SHOWN_KEYS = 12;

/** `path` as code would write it: `history[2].content[0].providerOptions.acme`. */
export function pathText(path: ValuePath): string {
  const text = path
    .slice(0, SHOWN_KEYS)
    .map((key, i) =>
      typeof key === "number"
        ? `[${key}]`
        : /^[A-Za-z_$][\w$]*$/.test(key)
          ? `${i === 0 ? "" : "."}${key}`
          : `[${JSON.stringify(key)}]`,
    )
    .join("");
  return path.length > SHOWN_KEYS ? `${text}…` : text;
}
