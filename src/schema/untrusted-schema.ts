// A schema that comes from outside the process (an MCP server's tool list) is untrusted input: ajv may not
// compile it, and its regular expressions run on the model's arguments with a backtracking engine. This is
// the one place that decides whether such a schema may be used, for every path that reads one.
import type { JsonSchema } from "./json-schema.js";
import { schemaProblem } from "./validate.js";

/**
 * Why an untrusted schema is refused, or `undefined` when it may be used: ajv cannot compile it, or one of
 * its regular expressions (`pattern`, `patternProperties` keys) could backtrack exponentially (a repeated
 * group that holds a repetition or an alternation, as `^(a+)+$` or `^(a|aa)*$`; or a back-reference).
 * Such a pattern would block the process for seconds on a short input, so it is refused, not run.
 */
export function untrustedSchemaProblem(schema: JsonSchema): string | undefined {
  for (const pattern of patternsOf(schema, 0)) {
    if (!backtracksSafely(pattern))
      return `its pattern ${JSON.stringify(pattern)} could take exponential time (a repeated group holding a repetition, an alternation or a back-reference)`;
  }
  const problem = schemaProblem(schema);
  return problem ? `its schema does not compile (${problem})` : undefined;
}

const MAX_DEPTH = 64;

function* patternsOf(node: unknown, depth: number): Generator<string> {
  if (depth > MAX_DEPTH || typeof node !== "object" || node === null) return;
  if (Array.isArray(node)) {
    for (const item of node) yield* patternsOf(item, depth + 1);
    return;
  }
  for (const [key, value] of Object.entries(node)) {
    if (key === "pattern" && typeof value === "string") yield value;
    if (key === "patternProperties" && typeof value === "object" && value !== null) yield* Object.keys(value);
    yield* patternsOf(value, depth + 1);
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
