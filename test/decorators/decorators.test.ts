import { describe, expect, it } from "vitest";
import {
  DecoratorMisuseError,
  getLlmTools,
  getToolProviderOptions,
  LlmTool,
  ToolParam,
  ToolProvider,
} from "entity-tools";

describe("@ToolProvider", () => {
  it("defaults the prefix to the lower-cased class name and the id property to id", () => {
    @ToolProvider()
    class BankAccount {}
    expect(getToolProviderOptions(BankAccount)).toMatchObject({
      prefix: "bankaccount",
      instanceIdProperty: "id",
    });
  });

  it("keeps explicit options, and a subclass inherits them", () => {
    @ToolProvider({ prefix: "acct", instanceIdProperty: "number" })
    class Account {}
    class Savings extends Account {}
    expect(getToolProviderOptions(Savings)).toMatchObject({ prefix: "acct", instanceIdProperty: "number" });
    expect(getToolProviderOptions(class Plain {})).toBeUndefined();
  });

  it("rejects an empty prefix, naming the class", () => {
    expect(() => {
      @ToolProvider({ prefix: " " })
      class Broken {}
      return Broken;
    }).toThrow(/@ToolProvider on Broken: prefix must not be empty/);
  });
});

describe("@LlmTool misuse fails at class definition, naming class and member", () => {
  it("on a field", () => {
    expect(() => {
      class Tools {
        // @ts-expect-error a method decorator on a property is exactly the misuse under test
        @LlmTool("x") field = 1;
      }
      return Tools;
    }).toThrow(
      new DecoratorMisuseError(
        "@LlmTool on Tools.field: it is not a method (fields, getters and setters cannot be tools)",
      ),
    );
  });

  it("on a getter", () => {
    expect(() => {
      class Tools {
        @LlmTool("x")
        get value(): number {
          return 1;
        }
      }
      return Tools;
    }).toThrow(/Tools\.value: it is not a method/);
  });

  it("with an empty description", () => {
    expect(() => {
      class Tools {
        @LlmTool("   ")
        run(): void {}
      }
      return Tools;
    }).toThrow(/Tools\.run: the description is empty/);
  });

  it("with two methods claiming one name", () => {
    expect(() => {
      class Tools {
        @LlmTool({ description: "a", name: "go" })
        a(): void {}
        @LlmTool({ description: "b", name: "go" })
        b(): void {}
      }
      return Tools;
    }).toThrow(/@LlmTool on Tools\.b: Tools\.a already has the tool name "go"/);
  });

  it("with a name providers reject", () => {
    expect(() => {
      class Tools {
        @LlmTool({ description: "a", name: "has space" })
        a(): void {}
      }
      return Tools;
    }).toThrow(/name "has space" must match/);
  });

  it("on a static method", () => {
    expect(() => {
      class Tools {
        @LlmTool("x")
        static run(): void {}
      }
      return Tools;
    }).toThrow(/static Tools\.run/);
  });

  it("@ToolParam with an empty description", () => {
    expect(() => {
      class Tools {
        @LlmTool("x")
        run(@ToolParam("") _a: string): void {}
      }
      return Tools;
    }).toThrow(/@ToolParam on Tools\.run #0: empty description/);
  });
});

describe("@LlmTool metadata", () => {
  it("has no parameters key when none were given (legacy and TC39 standard decorators); given ones are kept", () => {
    const parameters = { type: "object" as const, properties: { q: { type: "string" } } };
    class Tools {
      @LlmTool("Lists everything")
      all(): void {}
      @LlmTool({ description: "Finds one", parameters })
      find(): void {}
    }
    const metadata: Record<PropertyKey, unknown> = {};
    const standard = { kind: "method", name: "all", static: false, private: false, metadata };
    (LlmTool("Lists everything") as unknown as (v: unknown, c: object) => void)(() => {}, standard);
    class Standard {}
    // Where a TC39 class keeps its decorators' metadata (entity-tools defines `Symbol.metadata` where Node lacks it).
    Object.defineProperty(Standard, (Symbol as { metadata?: symbol }).metadata!, { value: metadata });
    const [all, find] = getLlmTools(Tools);
    for (const meta of [all!, getLlmTools(Standard)[0]!]) {
      expect("parameters" in meta).toBe(false);
      expect(Object.keys(meta)).toEqual([
        "methodName",
        "name",
        "description",
        "needsApproval",
        "declaringClass",
      ]);
    }
    expect(find!.parameters).toBe(parameters);
  });
});

describe("inheritance", () => {
  class Base {
    @LlmTool("Say hello")
    hello(): string {
      return "base hello";
    }
    @LlmTool("Say bye")
    bye(): string {
      return "base bye";
    }
  }
  class Child extends Base {
    @LlmTool("Say hello, the child's way")
    override hello(): string {
      return "child hello";
    }
    @LlmTool("Only the child can wave")
    wave(): string {
      return "wave";
    }
  }

  it("a subclass keeps its parent's tools, overrides re-decorated ones and adds its own", () => {
    const tools = getLlmTools(Child).map((t) => [t.name, t.description]);
    expect(tools).toEqual([
      ["hello", "Say hello, the child's way"],
      ["bye", "Say bye"],
      ["wave", "Only the child can wave"],
    ]);
    expect(getLlmTools(Base).map((t) => t.name)).toEqual(["hello", "bye"]);
  });

  it("two methods along the chain with one tool name are rejected when read", () => {
    class Parent {
      @LlmTool({ description: "p", name: "act" })
      p(): void {}
    }
    class Kid extends Parent {
      @LlmTool({ description: "k", name: "act" })
      k(): void {}
    }
    expect(() => getLlmTools(Kid)).toThrow(/Kid: methods p and k both have the tool name "act"/);
  });
});

describe("TC39 standard decorators (the call form; compiled by tsc in test/package/installed-package.test.ts)", () => {
  const context = (kind: string, extra: object = {}) => ({
    kind,
    name: "find",
    static: false,
    private: false,
    metadata: {} as Record<PropertyKey, unknown>,
    addInitializer: () => {},
    ...extra,
  });

  it("@ToolParam says what to use instead", () => {
    expect(() =>
      (ToolParam("the text") as unknown as (v: unknown, c: object) => void)(() => {}, context("method")),
    ).toThrow(
      "@ToolParam on find: TC39 standard decorators have no parameter decorators. Describe the parameter with a JSDoc @param tag on the method instead",
    );
  });

  it("@LlmTool refuses fields, static and private methods as it does in legacy mode", () => {
    const decorate = LlmTool("Find") as unknown as (v: unknown, c: object) => void;
    expect(() => decorate(undefined, context("field"))).toThrow(/it is not a method/);
    expect(() => decorate(() => {}, context("method", { static: true }))).toThrow(/only instance methods/);
    expect(() => decorate(() => {}, context("method", { private: true }))).toThrow(
      /private and symbol-named/,
    );
  });
});
