import "../fixtures/register.js";
import { describe, expect, it } from "vitest";
import {
  bindObjectTools,
  bindProviderTools,
  InvalidToolProviderError,
  LlmTool,
  MissingToolSchemaError,
  ToolParam,
  ToolProvider,
  type AnyTool,
} from "entity-tools";
import { Customer, Order, OrderRepository } from "../fixtures/shop.js";

const context = { toolCallId: "call-1", signal: new AbortController().signal };
const run = (tool: AnyTool | undefined, input: object) => tool!.execute(input as never, context);

describe("binding a provider", () => {
  const customer = new Customer("c123", "John Smith", new OrderRepository());
  const tools = bindProviderTools(customer);

  it("names every tool <prefix>_<id>_<method> and keeps descriptions and generated schemas", () => {
    expect(tools.map((t) => t.name)).toEqual([
      "customer_c123_getAverageSpend",
      "customer_c123_recentOrders",
      "customer_c123_findOrders",
    ]);
    expect(tools[1]!.description).toBe("Get this customer's most recent orders");
    expect(tools[1]!.inputSchema.properties).toEqual({
      limit: { type: "number", default: 10, description: "How many orders, newest first" },
    });
    expect(tools[0]!.origin).toMatchObject({
      instance: customer,
      providerClass: Customer,
      instanceId: "c123",
    });
  });

  it("maps input fields to positional arguments by name, applying defaults when absent", async () => {
    expect((await run(tools[1], {})) as Order[]).toHaveLength(2);
    expect((await run(tools[1], { limit: 1 })) as Order[]).toEqual([new Order("c123-o1", 120, "open")]);
  });

  it("awaits async methods and passes later parameters in their positions", async () => {
    const result = await run(tools[2], { statuses: ["open"], shipTo: { street: "Main St", city: "Oslo" } });
    expect(result).toBe("open since ever to Oslo");
  });

  it("binds the live instance: state and excluded dependencies are there", async () => {
    const orders = (await run(tools[1], { limit: 5 })) as Order[];
    expect(orders[0]!.id).toBe("c123-o1");
  });

  it("rejects providers without a usable id, naming class and reason", () => {
    for (const [id, reason] of [
      [null, 'its id property "id" is null'],
      [undefined, 'its id property "id" is undefined'],
      ["  ", 'its id property "id" is empty'],
      [{}, 'its id property "id" is a object, not a string or number'],
    ] as const) {
      const broken = new Customer(id as unknown as string, "x", new OrderRepository());
      const error = (() => {
        try {
          bindProviderTools(broken);
        } catch (e) {
          return e as InvalidToolProviderError;
        }
      })();
      expect(error).toBeInstanceOf(InvalidToolProviderError);
      expect(error?.providerClass).toBe(Customer);
      expect(error?.reason).toBe(reason);
    }
  });

  it("uses a custom id property and a numeric id", () => {
    @ToolProvider({ prefix: "acct", instanceIdProperty: "number" })
    class Account {
      constructor(public number: number) {}
      @LlmTool("Balance")
      balance(): number {
        return 1;
      }
    }
    expect(bindProviderTools(new Account(42)).map((t) => t.name)).toEqual(["acct_42_balance"]);
  });
});

describe("binding a plain tool object", () => {
  class Calculator {
    constructor(private readonly base: number) {}
    @LlmTool({
      description: "Add to the base",
      parameters: {
        type: "object",
        properties: { a: { type: "number" }, b: { type: "number" } },
        required: ["a"],
      },
    })
    add(@ToolParam("First addend") a: number, b = 0): number {
      return this.base + a + b;
    }
    @LlmTool({ description: "Reset", name: "reset_all" })
    reset(): string {
      return "reset";
    }
    notATool(): string {
      return "no";
    }
  }

  it("names tools by method or explicit name, binds the instance, and fills @ToolParam descriptions", async () => {
    const tools = bindObjectTools(new Calculator(100));
    expect(tools.map((t) => t.name)).toEqual(["add", "reset_all"]);
    expect(tools[0]!.inputSchema.properties).toEqual({
      a: { type: "number", description: "First addend" },
      b: { type: "number" },
    });
    expect(await run(tools[0], { a: 1, b: 2 })).toBe(103);
    expect(await run(tools[0], { a: 1 })).toBe(101);
  });

  it("fills a @ToolParam description where an explicit schema gives `description: undefined`", () => {
    const described: string | undefined = undefined; // a description the code may not have
    class Scaler {
      @LlmTool({
        description: "Scale",
        parameters: { type: "object", properties: { factor: { type: "number", description: described } } },
      })
      scale(@ToolParam("The factor") factor: number): number {
        return factor;
      }
    }
    expect(bindObjectTools(new Scaler())[0]!.inputSchema.properties).toEqual({
      factor: { type: "number", description: "The factor" },
    });
  });

  it("fails with the method and the command when a method with parameters has no schema", () => {
    class Unregistered {
      @LlmTool("Needs a schema")
      lookup(query: string): string {
        return query;
      }
    }
    expect(() => bindObjectTools(new Unregistered())).toThrow(MissingToolSchemaError);
    expect(() => bindObjectTools(new Unregistered())).toThrow(
      /Unregistered\.lookup: generate schemas with `npx entity-tools schemas/,
    );
  });
});
