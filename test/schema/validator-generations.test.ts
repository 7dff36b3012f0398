// Schemas are compiled in generations of ajv (ajv keeps every function it compiled in its code scope, and
// removeSchema does not prune it): H18 in test/reliability/hostile-values.test.ts counts what stays held
// after 2 000 runs; here a schema in use across generations keeps validating.
import { describe, expect, it } from "vitest";
import { compiledSchemasHeld, validateAgainst } from "../../src/schema/validate.js";
import type { JsonSchema } from "../../src/schema/json-schema.js";

describe("the validator cache", () => {
  it("a schema kept in use across generations still validates (compiled again in the new one)", () => {
    const kept = { type: "object", properties: { n: { type: "number" } }, required: ["n"] } as JsonSchema;
    for (let i = 0; i < 600; i++) {
      validateAgainst({ type: "object", properties: { [`g${i}`]: { type: "string" } } } as JsonSchema, {});
      if (i % 50 === 0)
        expect(validateAgainst(kept, {})).toEqual({ ok: false, problems: ['missing required field "n"'] });
    }
    expect(validateAgainst(kept, { n: 1 })).toEqual({ ok: true });
    expect(compiledSchemasHeld()).toBeLessThanOrEqual(1_000);
  });
});
