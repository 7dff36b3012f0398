// Untrusted schemas (an MCP server's): refused when ajv cannot compile them or a pattern could backtrack
// exponentially on the model's input; usable otherwise.
import { describe, expect, it } from "vitest";
import { untrustedSchemaProblem } from "../../src/schema/untrusted-schema.js";

const withPattern = (pattern: string) => ({
  type: "object",
  properties: { s: { type: "string", pattern } },
});

describe("untrustedSchemaProblem", () => {
  it.each(["^(a+)+$", "^(a|aa)*$", "(\\w+\\s?)*$", "^(a*)*b", "(x{2,})+", "^(.)\\1$"])(
    "refuses %s, which could take exponential time",
    (pattern) => {
      expect(untrustedSchemaProblem(withPattern(pattern))).toMatch(/could take exponential time/);
    },
  );

  it.each(["^[a-z]+$", "^\\d{3}-\\d{4}$", "^(ab)+$", "^[(a+)+]$", "^o-\\d+$", "(a+)?b"])(
    "accepts %s",
    (pattern) => {
      expect(untrustedSchemaProblem(withPattern(pattern))).toBeUndefined();
    },
  );

  it("looks into patternProperties keys and nested schemas", () => {
    expect(
      untrustedSchemaProblem({ type: "object", patternProperties: { "^(a+)+$": { type: "string" } } }),
    ).toMatch(/exponential/);
    expect(
      untrustedSchemaProblem({
        type: "object",
        properties: { x: { type: "array", items: withPattern("(b+)+") } },
      }),
    ).toMatch(/exponential/);
  });

  it("refuses a schema ajv cannot compile, saying why", () => {
    expect(untrustedSchemaProblem({ type: "object", properties: { x: { type: "nope" } } })).toMatch(
      /^its schema does not compile \(/,
    );
  });
});
