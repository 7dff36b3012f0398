import fc from "fast-check";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { TOOL_NAME_PATTERN } from "entity-tools";
import {
  disambiguatedToolName,
  fittedToolName,
  isNameFor,
  plainToolName,
  providerToolName,
} from "../../src/tools/tool-names.js";

describe("tool names", () => {
  it("property: a disambiguated name is recognised as a name for its natural one, and for no other", () => {
    const name = fc.stringMatching(/^[a-z][a-z0-9_]{0,63}$/);
    fc.assert(
      fc.property(
        name,
        name,
        fc.string(),
        fc.integer({ min: 1, max: 5 }),
        (natural, other, identity, attempt) => {
          const renamed = disambiguatedToolName(natural, identity, attempt);
          expect(isNameFor(renamed, natural)).toBe(true);
          expect(isNameFor(natural, natural)).toBe(true);
          if (!renamed.startsWith(other.slice(0, 47))) expect(isNameFor(renamed, other)).toBe(false);
        },
      ),
    );
  });

  it("a renamed provider tool keeps its method as the last part; names of earlier versions are still its names", () => {
    const renamed = disambiguatedToolName("acct_42_close", "Savings|string:42|close", 1, "close");
    expect(renamed).toMatch(/^acct_42_[0-9a-z]{16}_close$/);
    expect(/_close$/.test(renamed)).toBe(true);
    expect(isNameFor(renamed, "acct_42_close")).toBe(true);
    expect(
      isNameFor(disambiguatedToolName("acct_42_close", "Savings|string:42|close", 1), "acct_42_close"),
    ).toBe(true);
    expect(isNameFor(renamed, "acct_42_open")).toBe(false);
    const long = `acct_${"9".repeat(60)}_close`;
    expect(disambiguatedToolName(long, "x", 1, "close")).toMatch(/^acct_9+_[0-9a-z]{16}_close$/);
    expect(disambiguatedToolName(long, "x", 1, "close")).toHaveLength(64);
  });

  it("keeps valid names as they are", () => {
    expect(providerToolName("customer", "c123", "getAverageSpend")).toBe("customer_c123_getAverageSpend");
    expect(plainToolName("searchCustomer")).toBe("searchCustomer");
  });

  it("sanitizes a UUID-bearing, over-long name but keeps prefix and method readable", () => {
    const name = providerToolName(
      "customer",
      "3f2a9c1e-8b7d-4e6f-a5c4-1b2d3e4f5a6b",
      "getAverageSpendOverLastYear",
    );
    expect(name).toMatch(TOOL_NAME_PATTERN);
    expect(name.length).toBeLessThanOrEqual(64);
    expect(name.startsWith("customer_3f2a9c1e")).toBe(true);
    expect(name.endsWith("_getAverageSpendOverLastYear")).toBe(true);
  });

  it("keeps two ids that sanitize to the same text apart", () => {
    const a = providerToolName("customer", "john smith", "get");
    const b = providerToolName("customer", "john.smith", "get");
    expect(a).not.toBe(b);
    expect(a).toMatch(/^customer_john_smith_[0-9a-z]{16}_get$/);
    expect(providerToolName("customer", "john_smith", "get")).toBe("customer_john_smith_get");
  });

  it("makes a name start with a letter or _", () => {
    expect(providerToolName("9lives", "1", "x")).toMatch(/^_9lives_1_[0-9a-z]{16}_x$/);
    expect(plainToolName("$lookup")).toMatch(/^_lookup_[0-9a-z]{16}$/);
  });

  it("is deterministic across processes (another process, the built package, gives the same names)", async () => {
    const ids = ["ünïcødé", "john smith", "x".repeat(80), "c1"];
    // The built package names a provider's tools with the same function: a provider of prefix "p" and one
    // method "m", bound by hand, per id.
    const script = `const { LlmTool, ToolProvider } = await import("entity-tools");
      const { bindProviderTools } = await import("entity-tools/building-blocks");
      class P { constructor(id) { this.id = id; } m() {} }
      LlmTool({ description: "m", parameters: { type: "object", properties: {} } })(P.prototype, "m",
        Object.getOwnPropertyDescriptor(P.prototype, "m"));
      ToolProvider({ prefix: "p" })(P);
      console.log(JSON.stringify(${JSON.stringify(ids)}.map((id) => bindProviderTools(new P(id))[0].name)));`;
    const { stdout } = await promisify(execFile)(process.execPath, ["--input-type=module", "-e", script]);
    expect(JSON.parse(stdout)).toEqual(ids.map((id) => providerToolName("p", id, "m")));
  });

  it("property: over 10 000 random ids (unicode, 100 characters) every name is valid and distinct ids stay distinct", () => {
    const id = fc.oneof(
      fc.string({ unit: "grapheme", maxLength: 100 }),
      fc.string({ unit: "binary", minLength: 90, maxLength: 100 }),
      fc.stringMatching(/^[a-z0-9_-]{1,100}$/),
      fc.uuid(),
    );
    const seen = new Map<string, string>();
    fc.assert(
      fc.property(
        id,
        fc.constantFrom("customer", "order", "ünicode-prefix", "a".repeat(70)),
        (raw, prefix) => {
          const name = providerToolName(prefix, raw, "getAverageSpend");
          expect(name).toMatch(TOOL_NAME_PATTERN);
          const key = `${prefix}\u0000${raw}`;
          const earlier = seen.get(name);
          expect(earlier === undefined || earlier === key).toBe(true);
          seen.set(name, key);
        },
      ),
      { numRuns: 12_000 },
    );
    expect(seen.size).toBeGreaterThan(10_000);
  });

  it("fits a name into a shorter channel (Claude Code's mcp__<server>__ prefix): unchanged when it fits, else cut with a hash, keeping the method", () => {
    expect(fittedToolName("customer_c123_getAverageSpend", 52)).toBe("customer_c123_getAverageSpend");
    const long = "customer_3f2a9c1e-8b7d-4e6f-a5c4-1b2d3e4f5a6b_getAverageSpend";
    const fitted = fittedToolName(long, 52);
    expect(fitted).toHaveLength(52);
    expect(fitted).toMatch(/^customer_3f2a9c1e-8_[0-9a-z]{16}_getAverageSpend$/);
  });

  it("property: fitted names stay within the limit, valid, and distinct for distinct names", () => {
    const seen = new Map<string, string>();
    fc.assert(
      fc.property(
        fc.stringMatching(/^[a-zA-Z_][a-zA-Z0-9_-]{0,63}$/),
        fc.integer({ min: 20, max: 64 }),
        (name, max) => {
          const fitted = fittedToolName(name, max);
          expect(fitted.length).toBeLessThanOrEqual(max);
          expect(fitted).toMatch(TOOL_NAME_PATTERN);
          const key = `${max}:${fitted}`;
          expect([undefined, name]).toContain(seen.get(key));
          seen.set(key, name);
        },
      ),
      { numRuns: 5_000 },
    );
  });
});
