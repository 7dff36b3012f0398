// Hardening round 12 (docs/reliability.md, "declaring tools"): odd declarations a user writes either work
// (the model is offered a schema it can meet, and the call reaches the right method of the right instance)
// or are refused before any model call, naming the class and the method.
import { describe, expect, it } from "vitest";
import {
  bindObjectTools,
  DecoratorMisuseError,
  LlmTool,
  PromptRunner,
  registerToolSchemas,
  ToolProvider,
  type ParametersSchema,
} from "entity-tools";
import { FakePromptRunner } from "entity-tools/testing";
import { call, mockModel, text } from "../support/mock-model.js";

const schema = (properties: Record<string, object>, required?: string[]): ParametersSchema => ({
  type: "object",
  properties,
  ...(required ? { required } : {}),
});

/** What the model reads after calling `name` of `tools` with `input`. */
async function resultOf(tools: object, name: string, input: unknown): Promise<string | undefined> {
  const fake = new FakePromptRunner();
  fake.callTool(name, input).respondWithText("done");
  await fake.withTools(tools).run("q");
  return fake.callsAt(1)[0]?.resultText;
}

describe("an explicit @LlmTool({ parameters }) schema that cannot describe its method is refused when bound", () => {
  it("G01 not a valid JSON Schema: the run fails before its first model call (was: at the tool's first call)", async () => {
    class Search {
      @LlmTool({ description: "Search", parameters: schema({ q: { type: "strin" } }) })
      find(q: string): string {
        return q;
      }
    }
    const model = mockModel(call("find", { q: "tea" }), text("never"));
    const failed = await new PromptRunner({ model })
      .withTools(new Search())
      .run("q")
      .catch((e: unknown) => e);
    expect(failed).toEqual(
      new DecoratorMisuseError(
        "@LlmTool on Search.find: parameters is not a valid JSON Schema (schema is invalid: data/properties/q/type must be equal to one of the allowed values, data/properties/q/type must be array, data/properties/q/type must match a schema in anyOf)",
      ),
    );
    expect(model.doGenerateCalls).toHaveLength(0);
  });

  it("G02 a property that is no parameter of the method (was: the method got undefined)", () => {
    class Search {
      @LlmTool({ description: "Search", parameters: schema({ query: { type: "string" } }, ["query"]) })
      find(q: string): string {
        return `got ${q}`;
      }
      @LlmTool({ description: "List", parameters: schema({ limit: { type: "number" } }) })
      list(): string {
        return "all";
      }
    }
    expect(() => bindObjectTools(new Search())).toThrow(
      '@LlmTool on Search.find: parameters describes "query", which is not a parameter of the method (it takes q): what the model sends as "query" would never reach it',
    );
    class Lister {
      @LlmTool({ description: "List", parameters: schema({ limit: { type: "number" } }) })
      list(): string {
        return "all";
      }
    }
    expect(() => bindObjectTools(new Lister())).toThrow(
      /Lister\.list: parameters describes "limit".*\(it takes none\)/,
    );
  });

  it("G03 a required field the properties do not describe (was: no call could be valid)", () => {
    class Search {
      @LlmTool({ description: "Search", parameters: schema({ q: { type: "string" } }, ["q", "limit"]) })
      find(q: string, limit?: number): string {
        return `${q} ${limit}`;
      }
    }
    expect(() => bindObjectTools(new Search())).toThrow(
      '@LlmTool on Search.find: parameters requires "limit", which its properties do not describe: no call the model makes would be valid',
    );
  });

  it("G04 a destructured or rest parameter (was: the method got undefined, or an array in an array)", () => {
    class Orders {
      @LlmTool({
        description: "Place",
        parameters: schema({ sku: { type: "string" }, qty: { type: "number" } }),
      })
      place({ sku, qty }: { sku: string; qty: number }): string {
        return `${qty} x ${sku}`;
      }
    }
    class Tags {
      @LlmTool({
        description: "Tag",
        parameters: schema({ id: { type: "string" }, tags: { type: "array" } }),
      })
      tag(id: string, ...tags: string[]): string {
        return `${id} ${tags.join()}`;
      }
    }
    expect(() => bindObjectTools(new Orders())).toThrow(
      "@LlmTool on Orders.place: parameter #1 has no plain name (a destructuring pattern); the model's input reaches a method by parameter name: give it a name and describe it in parameters under that name",
    );
    expect(() => bindObjectTools(new Tags())).toThrow(
      new DecoratorMisuseError(
        "@LlmTool on Tags.tag: parameter \"tags\" is a rest parameter: a tool's input is one object keyed by the method's parameter names; take an array instead (tags: T[])",
      ),
    );
  });

  it("G24 a method whose only parameter is a rest parameter, with an explicit or a registered schema (was: taken for another decorator's wrapper, and the method got the array inside another array)", () => {
    class Batch {
      @LlmTool({ description: "Run", parameters: schema({ steps: { type: "array" } }) })
      run(...steps: string[]): string {
        return JSON.stringify(steps);
      }
    }
    class Queue {
      @LlmTool("Queue")
      async add(...jobs: string[]): Promise<string> {
        return Promise.resolve(JSON.stringify(jobs));
      }
    }
    registerToolSchemas({
      tools: {
        "Queue.add": {
          parameters: ["jobs"],
          inputSchema: { type: "object", properties: { jobs: { type: "array", items: { type: "string" } } } },
        },
      },
      outputs: {},
      classes: { Queue },
    });
    const refusal = (method: string, parameter: string) =>
      new DecoratorMisuseError(
        `@LlmTool on ${method}: parameter "${parameter}" is a rest parameter: a tool's input is one object keyed by the method's parameter names; take an array instead (${parameter}: T[])`,
      );
    expect(() => bindObjectTools(new Batch())).toThrow(refusal("Batch.run", "steps"));
    const runner = new PromptRunner({ model: mockModel(text("never")) });
    expect(() => runner.withTools(new Batch())).toThrow(refusal("Batch.run", "steps"));
    expect(() => bindObjectTools(new Queue())).toThrow(refusal("Queue.add", "jobs"));
  });

  it("G05 a schema that is not an object schema (was: every call refused as not JSON)", () => {
    class Echo {
      @LlmTool({ description: "Echo", parameters: { type: "string" } as unknown as ParametersSchema })
      say(text: string): string {
        return text;
      }
    }
    expect(() => bindObjectTools(new Echo())).toThrow(
      '@LlmTool on Echo.say: parameters must be an object schema keyed by the method\'s parameter names ({ type: "object", properties: { <parameter>: { … } } }), got type "string"',
    );
  });

  it("G17 properties out of the parameters' order (a minified bundle passes them by position)", () => {
    class Search {
      @LlmTool({
        description: "Search",
        parameters: schema({ limit: { type: "number" }, q: { type: "string" } }),
      })
      find(q: string, limit: number): string {
        return `${q}:${limit}`;
      }
    }
    expect(() => bindObjectTools(new Search())).toThrow(
      "@LlmTool on Search.find: parameters lists limit, q, which must be the method's parameters in their order (it takes q, limit; any it leaves out last): a minified bundle, its names mangled, passes them by position",
    );
  });

  it("a schema that describes the method still binds, and the call reaches it", async () => {
    class Search {
      @LlmTool({ description: "Search", parameters: schema({ q: { type: "string" } }, ["q"]) })
      find(q: string, limit = 2): string {
        return `${q}:${limit}`;
      }
    }
    expect(await resultOf(new Search(), "find", { q: "tea" })).toBe("tea:2");
  });
});

/** A method decorator that wraps the method, as logging, tracing and retry decorators do. */
function Traced(): MethodDecorator {
  return (_target, _key, descriptor: PropertyDescriptor) => {
    const original = descriptor.value as (...args: unknown[]) => unknown;
    descriptor.value = function (this: unknown, ...args: unknown[]) {
      return original.apply(this, args);
    };
  };
}

describe("G06 a tool method wrapped by another decorator", () => {
  class Shelf {
    @LlmTool("Reserve a book")
    @Traced()
    reserve(memberId: string, days: number): string {
      return `${memberId} for ${days} days`;
    }
  }
  class Desk {
    @Traced()
    @LlmTool({
      description: "Lend a book",
      parameters: schema({ memberId: { type: "string" }, days: { type: "number" } }),
    })
    lend(memberId: string, days: number): string {
      return `${memberId} lends for ${days} days`;
    }
  }
  registerToolSchemas({
    tools: {
      "Shelf.reserve": {
        parameters: ["memberId", "days"],
        inputSchema: {
          type: "object",
          properties: { memberId: { type: "string" }, days: { type: "number" } },
          required: ["memberId", "days"],
          additionalProperties: false,
        },
      },
    },
    outputs: {},
    classes: { Shelf },
  });

  it("is called with the generated schema's parameters (was: StaleToolSchemaError, its wrapper taking (...args))", async () => {
    expect(await resultOf(new Shelf(), "reserve", { memberId: "m1", days: 3 })).toBe("m1 for 3 days");
  });

  it("with an explicit schema, in either decorator order", async () => {
    expect(await resultOf(new Desk(), "lend", { memberId: "m2", days: 5 })).toBe("m2 lends for 5 days");
  });

  it("G24 a wrapper that is a method keyed by the method's name (`{ [key](...args) {…} }[key]`) is still a wrapper", async () => {
    const Named = (): MethodDecorator => (_target, key, descriptor: PropertyDescriptor) => {
      const original = descriptor.value as (...args: unknown[]) => unknown;
      if (typeof key !== "string") throw new Error("string keys only");
      descriptor.value = {
        [key](this: unknown, ...args: unknown[]) {
          return original.apply(this, args);
        },
      }[key];
    };
    class Counter {
      @Named()
      @LlmTool({ description: "Add", parameters: schema({ a: { type: "number" }, b: { type: "number" } }) })
      add(a: number, b: number): string {
        return String(a + b);
      }
    }
    expect(await resultOf(new Counter(), "add", { a: 2, b: 3 })).toBe("5");
  });
});

describe("a class or method decorated twice is refused where it is defined", () => {
  it("G07 @LlmTool twice on one method (was: one of the two dropped unseen)", () => {
    expect(() => {
      class Tools {
        @LlmTool({ description: "Outer", name: "outer" })
        @LlmTool("Inner")
        run(): void {}
      }
      return Tools;
    }).toThrow(
      new DecoratorMisuseError(
        "@LlmTool on Tools.run: the method is already decorated with @LlmTool; a method is one tool, keep one decorator",
      ),
    );
  });

  it("G08 @ToolProvider twice on one class (was: the outer prefix won unseen)", () => {
    expect(() => {
      @ToolProvider({ prefix: "a" })
      @ToolProvider({ prefix: "b" })
      class Account {
        id = "1";
      }
      return Account;
    }).toThrow(
      new DecoratorMisuseError(
        '@ToolProvider on Account: the class is already decorated with @ToolProvider (prefix "b"); keep one decorator',
      ),
    );
  });
});

describe("G09 subclasses", () => {
  @ToolProvider({ prefix: "acct" })
  class Account {
    constructor(readonly id: string) {}
    @LlmTool("Describe this account")
    describe(): string {
      return `account ${this.id}`;
    }
  }
  class Savings extends Account {
    @LlmTool("Describe this savings account")
    override describe(): string {
      return `savings ${this.id}`;
    }
  }

  it("an override decorated again is offered with its own description and runs the subclass's code", async () => {
    const [tool] = bindObjectTools(new Savings("s1"));
    expect(tool).toMatchObject({ name: "describe", description: "Describe this savings account" });
    expect(await resultOf(new Savings("s1"), "acct_s1_describe", {})).toBe("savings s1");
  });

  it("a discovered subclass instance is a provider with the parent's prefix; each call reaches its own instance", async () => {
    const fake = new FakePromptRunner();
    const find = {
      name: "findAccounts",
      description: "Find the accounts",
      inputSchema: { type: "object", properties: {} },
      execute: () => [new Account("a1"), new Savings("s1")],
    } as const;
    fake
      .callTool("findAccounts")
      .callTools([["acct_a1_describe"], ["acct_s1_describe"]])
      .respondWithText("done");
    await fake.withTools(find).withToolProviderDiscovery().run("q");
    expect(fake.injectedToolNames).toEqual(["acct_a1_describe", "acct_s1_describe"]);
    expect(fake.callsAt(2).map((c) => c.resultText)).toEqual(["account a1", "savings s1"]);
  });
});

describe("G16 members that can never be tools are refused where the class is defined", () => {
  it("a symbol-named method, with legacy decorators and in the TC39 form", () => {
    const key = Symbol("find");
    expect(() => {
      class Tools {
        @LlmTool("Find")
        [key](): void {}
      }
      return Tools;
    }).toThrow(
      new DecoratorMisuseError("@LlmTool on Tools.Symbol(find): symbol-named methods cannot be tools"),
    );
    const decorate = LlmTool("Find") as unknown as (value: unknown, context: object) => void;
    const context = { kind: "method", name: key, static: false, private: false, metadata: {} };
    expect(() => decorate(() => {}, context)).toThrow(/private and symbol-named methods cannot be tools/);
  });
});
