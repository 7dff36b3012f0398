// Where a value has no JSON form: a place `JSON.stringify` would refuse (a cycle, a bigint) or
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

/** An object the walk visits, and the place it is in (the path is made only for a problem). */
interface Place {
  readonly value: object;
  readonly parent: Place | undefined;
  readonly key: string | number;
  readonly depth: number;
}

/**
 * A place in `value` that JSON has no form for, or undefined when it has one. A cycle is an
 * object met again among the objects enclosing it (its place's parents, at most `MAX_JSON_DEPTH`): no
 * set to keep, and what a history is made of (objects a few levels deep) costs about what copying it does.
 */
export function jsonFormProblem(value: unknown, options: JsonFormOptions = {}): JsonFormProblem | undefined {
  const at = options.at ?? [];
  if (typeof value === "bigint") return options.bigints ? undefined : { path: at, kind: "bigint" };
  if (!goesInto(value, options)) return undefined;
  const stack: Place[] = [{ value, parent: undefined, key: "", depth: 0 }];
  while (stack.length > 0) {
    const place = stack.pop()!;
    const item = place.value;
    for (let up = place.parent; up; up = up.parent)
      if (up.value === item) return { path: pathOf(place, at), kind: "cycle", cycleTo: pathOf(up, at) };
    if (place.depth > MAX_JSON_DEPTH) return { path: pathOf(place, at), kind: "depth" };
    const depth = place.depth + 1;
    const keys: readonly (string | number)[] = Array.isArray(item) ? [...item.keys()] : Object.keys(item);
    // Last key first: the stack then gives the first key's part first, as JSON writes them.
    for (let i = keys.length - 1; i >= 0; i--) {
      const key = keys[i]!;
      const child = (item as Record<string | number, unknown>)[key];
      if (typeof child === "bigint" && !options.bigints)
        return { path: pathOf({ value: item, parent: place, key, depth }, at), kind: "bigint" };
      if (goesInto(child, options)) stack.push({ value: child, parent: place, key, depth });
    }
  }
  return undefined;
}

/** Whether the walk goes into `value`: an object that does not write itself in a form of its own. */
function goesInto(value: unknown, options: JsonFormOptions): value is object {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as { toJSON?: unknown }).toJSON !== "function" &&
    !isJsonData(value) &&
    options.leaf?.(value) !== true
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
