// How a test names a tool, in one place for every helper that takes one: a scripted call, a stubbed
// return, an expected call of `scoreToolUse`.

/** A tool to call: its exact name, or a pattern matched against the tools offered at that step. */
export type ToolNameMatcher = string | RegExp;

/**
 * Whether `matcher` names the tool `name`. A pattern is tested from the start of the name every time:
 * `RegExp.test` of a `/g` or `/y` pattern goes on from where it last matched, so the next name (or the same
 * tool's next call) was tested from there and missed.
 */
export function toolNameMatches(matcher: ToolNameMatcher, name: string): boolean {
  if (typeof matcher === "string") return matcher === name;
  matcher.lastIndex = 0;
  return matcher.test(name);
}
