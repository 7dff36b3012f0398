// A schema that comes from outside the process (an MCP server's tool list) is untrusted input: ajv may not
// compile it, and its regular expressions run on the model's arguments with a backtracking engine. This is
// the one place that decides whether such a schema may be used, for every path that reads one.
//
// It decides without compiling: a server may list 10 000 tools of which a run calls a handful, and ajv's
// code generation costs milliseconds a schema (2 s of a 3.5 s start, issue 46), while checking its shape
// costs microseconds (validate.ts, `metaSchemaProblem`). The checks below are the reasons ajv's compile refuses a schema: not a valid JSON
// Schema (its meta-schema), a pattern that is not a regular expression in ajv's unicode mode, a local
// `$ref` that points nowhere. What they cannot see (a remote `$ref`) is
// found when the tool is first called and its validator compiled: the call is refused, the run goes on
// (see {@link isUntrustedSchema}).
import type { JsonSchema } from "./json-schema.js";
import { metaSchemaProblem } from "./validate.js";

/**
 * Why an untrusted schema is refused, or `undefined` when it may be used: it is not a valid JSON Schema,
 * a pattern is not a valid regular expression, a local `$ref` resolves to nothing (what ajv would refuse
 * to compile, in ajv's words), or one of its regular expressions (`pattern`, `patternProperties` keys)
 * could backtrack exponentially (a repeated group that holds a repetition or an alternation, as `^(a+)+$`
 * or `^(a|aa)*$`; or a back-reference). Such a pattern would block the process for seconds on a short
 * input, so it is refused, not run. A schema it accepts is remembered as untrusted (see
 * {@link isUntrustedSchema}); nothing is compiled.
 */
export function untrustedSchemaProblem(schema: JsonSchema): string | undefined {
  const found = { patterns: [] as string[], refs: [] as string[], ids: false };
  collect(schema, 0, found);
  for (const pattern of found.patterns) {
    if (!backtracksSafely(pattern))
      return `its pattern ${JSON.stringify(pattern)} could take exponential time (a repeated group holding a repetition, an alternation or a back-reference)`;
  }
  const problem = metaSchemaProblem(schema) ?? regExpProblem(found.patterns) ?? refProblem(schema, found);
  if (problem) return `its schema does not compile (${problem})`;
  untrusted.add(schema);
  return undefined;
}

const untrusted = new WeakSet<object>();

/**
 * Whether `schema` is one {@link untrustedSchemaProblem} accepted: its validator is compiled at the tool's
 * first call, and if ajv refuses it then, that call is refused with the reason instead of failing the run
 * (a schema of the application's own that does not compile is a bug to fail loudly on; a server's is not).
 */
export function isUntrustedSchema(schema: JsonSchema): boolean {
  return untrusted.has(schema);
}

/** The first pattern that is not a regular expression as ajv compiles patterns (unicode), in its words. */
function regExpProblem(patterns: readonly string[]): string | undefined {
  for (const pattern of patterns) {
    try {
      new RegExp(pattern, "u");
    } catch (error) {
      return error instanceof Error ? error.message : String(error);
    }
  }
  return undefined;
}

/**
 * The first local `$ref` (`#`, `#/definitions/x`) that points at nothing in the schema, as ajv says it. A
 * schema with an `$id` anywhere is left to ajv (an id changes what a reference is resolved against), and
 * so are references to other documents.
 */
function refProblem(schema: JsonSchema, found: { refs: string[]; ids: boolean }): string | undefined {
  if (found.ids) return undefined;
  for (const ref of found.refs) {
    if (ref !== "#" && !ref.startsWith("#/")) continue;
    if (pointedAt(schema, ref) === undefined) return `can't resolve reference ${ref} from id #`;
  }
  return undefined;
}

/** What a JSON pointer fragment (`#/a/b~1c`) points at in `root`, or `undefined`. */
function pointedAt(root: unknown, ref: string): unknown {
  if (ref === "#") return root;
  let node = root;
  for (const segment of ref.slice(2).split("/")) {
    let key: string;
    try {
      key = decodeURIComponent(segment).replace(/~1/g, "/").replace(/~0/g, "~");
    } catch {
      return undefined;
    }
    if (typeof node !== "object" || node === null || !Object.hasOwn(node, key)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

const MAX_DEPTH = 64;

/** Every pattern (`pattern`, `patternProperties` keys) and `$ref` in `node`, and whether it has an id. */
function collect(
  node: unknown,
  depth: number,
  found: { patterns: string[]; refs: string[]; ids: boolean },
): void {
  if (depth > MAX_DEPTH || typeof node !== "object" || node === null) return;
  if (Array.isArray(node)) {
    for (const item of node) collect(item, depth + 1, found);
    return;
  }
  for (const [key, value] of Object.entries(node)) {
    if (key === "pattern" && typeof value === "string") found.patterns.push(value);
    if (key === "patternProperties" && typeof value === "object" && value !== null)
      for (const pattern of Object.keys(value)) found.patterns.push(pattern);
    if (key === "$ref" && typeof value === "string") found.refs.push(value);
    if (key === "$id" && typeof value === "string") found.ids = true;
    collect(value, depth + 1, found);
  }
}

/**
 * Whether a pattern has star height one at most, with no repeated alternation and no back-reference: the
 * shapes for which a backtracking engine stays polynomial. Conservative: it refuses some safe patterns.
 */
function backtracksSafely(pattern: string): boolean {
  // Each open group: whether it holds a repetition or an alternation so far.
  const groups: { risky: boolean }[] = [];
  const markEnclosing = () => {
    if (groups.length > 0) groups.at(-1)!.risky = true;
  };
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i]!;
    if (char === "\\") {
      if (/[1-9k]/.test(pattern[i + 1] ?? "")) return false; // a back-reference
      i++;
    } else if (char === "[") {
      i = classEnd(pattern, i);
    } else if (char === "(") {
      groups.push({ risky: false });
    } else if (char === ")") {
      const risky = groups.pop()?.risky ?? false;
      if (risky && isRepetition(pattern, i + 1)) return false;
      if (risky) markEnclosing();
    } else if (char === "|" || isRepetition(pattern, i)) {
      markEnclosing();
    }
  }
  return true;
}

/** Whether a repetition that can match more than once (`*`, `+`, `{n,}`, `{n,m}` with m > 1) starts at `at`. */
function isRepetition(pattern: string, at: number): boolean {
  const char = pattern[at];
  if (char === "*" || char === "+") return true;
  if (char !== "{") return false;
  const bounds = /^\{(\d+)(,(\d*))?\}/.exec(pattern.slice(at));
  if (!bounds) return false;
  if (bounds[2] === undefined) return Number(bounds[1]) > 1;
  return bounds[3] === "" || Number(bounds[3]) > 1;
}

function classEnd(pattern: string, start: number): number {
  for (let i = start + 1; i < pattern.length; i++) {
    if (pattern[i] === "\\") i++;
    else if (pattern[i] === "]" && i > start + 1) return i;
  }
  return pattern.length;
}
