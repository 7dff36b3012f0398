// Untrusted schemas (an MCP server's): refused when ajv cannot compile them or a pattern could backtrack
// exponentially on the model's input; usable otherwise. Checked without compiling (issue 46): the reasons
// are ajv's own words, as when each listed schema was compiled.
import { Ajv } from "ajv";
import { describe, expect, it } from "vitest";
import { isUntrustedSchema, untrustedSchemaProblem } from "../../src/schema/untrusted-schema.js";
import { validatorCacheSize } from "../../src/schema/validate.js";

/** What ajv's compile (with the validator's options) says of `schema`: the reason listing used to give. */
function compileError(schema: object): string {
  try {
    new Ajv({ allErrors: true, strict: false, logger: false }).compile(schema);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error("it compiles");
}

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

  it.each([
    ["not a JSON Schema", { type: "object", properties: { x: { type: "nope" } } }],
    [
      "a pattern ajv's unicode mode refuses",
      { type: "object", properties: { s: { pattern: "^[a-z]+\\-$" } } },
    ],
    ["an unterminated group", { type: "string", pattern: "(" }],
    ["a patternProperties key", { type: "object", patternProperties: { "[": { type: "string" } } }],
    ["a local $ref to nothing", { type: "object", properties: { x: { $ref: "#/definitions/gone" } } }],
    ["a $ref into a missing property", { properties: { a: { $ref: "#/properties/b" } } }],
  ])("refuses a schema ajv cannot compile (%s) in ajv's words, without compiling it", (_, schema) => {
    const before = validatorCacheSize();
    expect(untrustedSchemaProblem(schema)).toBe(`its schema does not compile (${compileError(schema)})`);
    expect(validatorCacheSize()).toBe(before);
  });

  it("accepts a usable schema without compiling it, and marks it untrusted", () => {
    const schema = {
      type: "object",
      definitions: { id: { type: "string", pattern: "^[a-z]+$" } },
      properties: { a: { $ref: "#/definitions/id" }, b: { $ref: "#" }, "c/d": { type: "number" } },
      patternProperties: { "^x-": { $ref: "#/properties/c~1d" } },
    };
    const before = validatorCacheSize();
    expect(untrustedSchemaProblem(schema)).toBeUndefined();
    expect(validatorCacheSize()).toBe(before);
    expect(isUntrustedSchema(schema)).toBe(true);
    expect(isUntrustedSchema({ ...schema })).toBe(false);
  });

  it("leaves to ajv what it cannot tell without compiling: a remote $ref, a $ref under an $id", () => {
    expect(untrustedSchemaProblem({ properties: { a: { $ref: "other.json#/x" } } })).toBeUndefined();
    expect(
      untrustedSchemaProblem({ $id: "http://x.test/s", properties: { a: { $ref: "#/definitions/y" } } }),
    ).toBeUndefined();
  });
});
