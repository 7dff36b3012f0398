import { describe, expect, it } from "vitest";
import { DecoratorMisuseError, Hidden, registerToolSchemas } from "entity-tools";
import { serializeToolResult } from "../../src/tools/serialize-result.js";

// What the model reads for an object is serializeToolResult's text: a hidden field must not be in it.
describe("@Hidden keeps a field away from the model", () => {
  it("legacy decorators: the field is left out of the result text, nested objects too", () => {
    class Repo {
      secret = "db-password";
    }
    class Customer {
      @Hidden() repo = new Repo();
      @Hidden() token = "tok-123";
      constructor(public id: string) {}
    }
    class Wrapper {
      constructor(public customer: Customer) {}
    }
    const text = serializeToolResult([new Wrapper(new Customer("c1"))]);
    expect(text).toBe('[{"customer":{"id":"c1"}}]');
  });

  it("standard decorators: the field is hidden once an instance exists (the decorator's initializer runs in it)", () => {
    const initializers: ((this: unknown) => void)[] = [];
    const decorate = Hidden() as unknown as (v: undefined, c: object) => void;
    decorate(undefined, {
      kind: "field",
      name: "token",
      static: false,
      private: false,
      metadata: {},
      addInitializer: (f: (this: unknown) => void) => initializers.push(f),
    });
    class Account {
      token = "tok-456";
      id = "a1";
      constructor() {
        for (const f of initializers) f.call(this);
      }
    }
    expect(serializeToolResult(new Account())).toBe('{"id":"a1"}');
  });

  it("refuses static members and methods, naming the member", () => {
    const decorate = Hidden() as unknown as (v: unknown, c: object) => void;
    const context = { name: "count", static: true, private: false, metadata: {}, addInitializer: () => {} };
    expect(() => decorate(undefined, { ...context, kind: "field" })).toThrow(DecoratorMisuseError);
    expect(() => decorate(() => {}, { ...context, kind: "method", static: false })).toThrow(
      /@Hidden on count: only instance fields can be hidden/,
    );
  });
});

describe("TypeScript private and protected fields", () => {
  it("are hidden once the generated module that lists them is registered", () => {
    class Vault {
      constructor(
        public id: string,
        private readonly key: string,
        protected audit: string[],
      ) {}
      keyLength(): number {
        return this.key.length + this.audit.length;
      }
    }
    expect(serializeToolResult(new Vault("v1", "k", []))).toContain('"key"');
    registerToolSchemas({
      tools: {},
      outputs: {},
      classes: { Vault },
      hiddenFields: { Vault: ["audit", "key"] },
    });
    expect(serializeToolResult(new Vault("v1", "k", []))).toBe('{"id":"v1"}');
  });
});
