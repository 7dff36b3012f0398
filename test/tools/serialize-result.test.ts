import "../fixtures/register.js";
import fc from "fast-check";
import { Exclude } from "class-transformer";
import { describe, expect, it } from "vitest";
import { NO_RESULT_TEXT, serializeToolResult } from "../../src/tools/serialize-result.js";
import { Customer, OrderRepository } from "../fixtures/shop.js";

describe("serializeToolResult", () => {
  it("never lets an @Exclude()d repository reach the model", () => {
    const text = serializeToolResult(new Customer("c1", "John", new OrderRepository()));
    expect(JSON.parse(text)).toEqual({ id: "c1", name: "John" });
    expect(text).not.toContain("db-password-123");
    expect(text).not.toContain("orders");
  });

  it("sends strings as they are and marks undefined clearly", () => {
    expect(serializeToolResult("plain text")).toBe("plain text");
    expect(serializeToolResult(undefined)).toBe(NO_RESULT_TEXT);
    expect(serializeToolResult(null)).toBe("null");
    expect(serializeToolResult(42)).toBe("42");
  });

  it("writes Dates as ISO text, bigint as strings, Maps as objects and Sets as arrays", () => {
    const value = {
      at: new Date("2026-01-02T03:04:05.000Z"),
      big: 12345678901234567890n,
      map: new Map<string, number>([["a", 1]]),
      set: new Set([1, 2]),
    };
    expect(JSON.parse(serializeToolResult(value))).toEqual({
      at: "2026-01-02T03:04:05.000Z",
      big: "12345678901234567890",
      map: { a: 1 },
      set: [1, 2],
    });
  });

  it("keeps an own __proto__ key as a field, at any depth, and in a Map", () => {
    const value = JSON.parse('{"__proto__":{"admin":true},"a":2,"n":[{"__proto__":1}]}') as object;
    expect(serializeToolResult(value)).toBe('{"__proto__":{"admin":true},"a":2,"n":[{"__proto__":1}]}');
    expect(serializeToolResult(new Map([["__proto__", 1]]))).toBe('{"__proto__":1}');
  });

  it("cuts cycles", () => {
    const node: { name: string; self?: unknown } = { name: "loop" };
    node.self = node;
    expect(() => serializeToolResult(node)).not.toThrow();
    expect(serializeToolResult(node)).toContain('"name":"loop"');
  });

  it("caps the size with an explicit note", () => {
    const text = serializeToolResult("x".repeat(20_000), { maxChars: 100 });
    expect(
      text.startsWith(
        "x".repeat(100) + "\n[truncated: the result was 20000 characters; the first 100 are shown]",
      ),
    ).toBe(true);
    expect(serializeToolResult("x".repeat(16_001))).toContain(
      "[truncated: the result was 16001 characters; the first 16000 are shown]",
    );
  });

  it("property: excluded, #private and non-enumerable values never appear in the text", () => {
    const marker = fc.stringMatching(/^[A-Za-z]{12}$/).map((s) => `SECRET_${s}`);
    fc.assert(
      fc.property(
        fc.dictionary(fc.stringMatching(/^[a-z]{1,8}$/), fc.jsonValue()),
        marker,
        (publicFields, secret) => {
          class Holder {
            @Exclude() excluded = secret;
            #hidden = secret;
            constructor() {
              Object.assign(this, publicFields);
              Object.defineProperty(this, "invisible", { value: secret, enumerable: false });
            }
            peek(): string {
              return this.#hidden;
            }
          }
          const text = serializeToolResult([new Holder(), { nested: new Holder() }]);
          expect(text).not.toContain(secret);
        },
      ),
      { numRuns: 300 },
    );
  });
});
