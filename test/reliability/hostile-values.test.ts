// Identity and hostile values (docs/reliability.md, H rows): a name reaches exactly its own object, and
// no value a tool, the model or a user hands over ends a run, hangs it, or takes minutes.
import "../fixtures/store/register.js";
import { readFileSync } from "node:fs";
import fc from "fast-check";
import { Exclude } from "class-transformer";
import { MockLanguageModelV3 } from "ai/test";
import { describe, expect, it } from "vitest";
import { Checking, Savings } from "../fixtures/colliding-accounts.js";
import {
  bindProviderTools,
  DecoratorMisuseError,
  defineTool,
  InvalidSettingError,
  LlmTool,
  PromptRunner,
  ToolLoopAbortedError,
  ToolProvider,
  type ToolLoopEvent,
} from "entity-tools";
import { ToolRegistry } from "../../src/tools/tool-registry.js";
import { compiledSchemasHeld, validatorCacheSize } from "../../src/schema/validate.js";
import { call, mockModel, text, toolResultsSeenAt, type MockTurn } from "../support/mock-model.js";

export const HOSTILE_CASE_IDS = Array.from({ length: 26 }, (_, i) => `H${String(i + 1).padStart(2, "0")}`);

@ToolProvider({ prefix: "customer" })
class Customer {
  constructor(public id: string | number) {}
  @LlmTool("This customer's orders")
  orders(): string {
    return `orders of ${typeof this.id}:${Object.is(this.id, -0) ? "-0" : String(this.id)}`;
  }
  @LlmTool("This customer's recent orders")
  recent_orders(): string {
    return `recent orders of ${typeof this.id}:${String(this.id)}`;
  }
}

/** A tool returning whatever `make` builds from the model's input. */
const returning = (name: string, make: (input: Record<string, unknown>) => unknown) =>
  defineTool<Record<string, unknown>>({
    name,
    description: name,
    inputSchema: { type: "object", properties: {} },
    execute: (input) => make(input),
  });

function runner(turns: MockTurn[], ...tools: ReturnType<typeof returning>[]) {
  const model = mockModel(...turns);
  const events: ToolLoopEvent[] = [];
  const r = new PromptRunner({ model, modelSettings: { maxRetries: 0 } })
    .withTools(...tools)
    .withToolProviderDiscovery()
    .withObserver((e) => events.push(e));
  return { model, runner: r, events };
}

/** The results of the last tool message the model read (the latest step's calls). */
function lastResults(model: ReturnType<typeof mockModel>): string[] {
  const prompt = model.doGenerateCalls.at(-1)?.prompt ?? [];
  const last = prompt.filter((m) => m.role === "tool").at(-1);
  if (last?.role !== "tool") return [];
  return last.content.flatMap((p) =>
    p.type === "tool-result" && "value" in p.output ? [String(p.output.value)] : [],
  );
}

describe("names reach exactly their own object", () => {
  it("H01 an id whose _ lines up with a method's _ does not take the other customer's name", async () => {
    const found = returning("find", () => [new Customer("c1"), new Customer("c1_recent")]);
    const {
      model,
      runner: r,
      events,
    } = runner(
      [
        call("find"),
        (o) => ({
          toolCalls: (o.tools ?? [])
            .map((t) => t.name)
            .filter(
              (n) => n === "customer_c1_recent_orders" || /^customer_c1_recent_[0-9a-z]{16}_orders$/.test(n),
            )
            .map((toolName) => ({ toolName })),
        }),
        text("done"),
      ],
      found,
    );
    await r.run("q");
    expect(lastResults(model)).toEqual(["recent orders of string:c1", "orders of string:c1_recent"]);
    const discovered = events.filter((e) => e.type === "ToolProviderDiscovered");
    expect(discovered[1]).toMatchObject({
      instanceId: "c1_recent",
      renamedTools: [
        {
          requested: "customer_c1_recent_orders",
          name: expect.stringMatching(/^customer_c1_recent_[0-9a-z]{16}_orders$/),
        },
      ],
    });
  });

  it("H02 two classes with one prefix and one id both stay reachable; neither replaces the other", async () => {
    const found = returning("accounts", () => [new Checking("42"), new Savings("42")]);
    const { model, runner: r } = runner(
      [
        call("accounts"),
        (o) => ({
          toolCalls: (o.tools ?? [])
            .filter((t) => t.name.startsWith("acct_42_") && t.name.endsWith("_close"))
            .map((t) => ({ toolName: t.name })),
        }),
        text("done"),
      ],
      found,
    );
    await r.run("q");
    expect(lastResults(model)).toEqual(["closed checking 42", "closed savings 42"]);
  });

  it('H03 ids 1 and "1" are two providers with two names', async () => {
    const found = returning("find", () => [new Customer(1), new Customer("1")]);
    const { model, runner: r } = runner(
      [
        call("find"),
        (o) => ({
          toolCalls: (o.tools ?? [])
            .filter((t) => t.name.includes("_orders") && !t.name.includes("recent"))
            .map((t) => ({ toolName: t.name })),
        }),
        text("done"),
      ],
      found,
    );
    await r.run("q");
    expect(lastResults(model)).toEqual(["orders of number:1", "orders of string:1"]);
  });

  it("H04 ids -0 and 0 are one provider, named 0 (JSON has no -0): in one result the first instance is bound", async () => {
    const found = returning("find", () => [new Customer(-0), new Customer(0)]);
    const {
      model,
      runner: r,
      events,
    } = runner(
      [
        call("find"),
        (o) => ({
          toolCalls: (o.tools ?? [])
            .filter((t) => /customer_-?0_orders$/.test(t.name))
            .map((t) => ({ toolName: t.name })),
        }),
        text("done"),
      ],
      found,
    );
    await r.run("q");
    expect(lastResults(model)).toEqual(["orders of number:-0"]);
    const discovered = events.filter((e) => e.type === "ToolProviderDiscovered");
    const zero = { providerClass: "Customer", id: 0, idType: "number" };
    expect(discovered.map((e) => e.identity)).toEqual([zero]);
  });

  it("H05 NaN and Infinity ids are refused with a notice; the run goes on", async () => {
    const found = returning("find", () => [
      new Customer(Number.NaN),
      new Customer(Infinity),
      new Customer("ok"),
    ]);
    const { model, runner: r } = runner([call("find"), text("done")], found);
    await r.run("q");
    const seen = lastResults(model)[0]!;
    expect(seen).toContain(
      '[Cannot expose tools of Customer: its id property "id" is NaN, not a finite number; no tools were added for it.]',
    );
    expect(seen).toContain("is Infinity, not a finite number");
    expect(model.doGenerateCalls[1]!.tools!.map((t) => t.name)).toContain("customer_ok_orders");
  });

  it("H06 property: over 10 000 random ids (with _, numbers and strings, two classes per prefix) each name has one binding", () => {
    const id = fc.oneof(
      fc.stringMatching(/^[a-z0-9_]{1,12}$/),
      fc.integer({ min: -50, max: 50 }),
      fc.integer({ min: -50, max: 50 }).map(String),
      fc.string({ maxLength: 20 }),
    );
    const registry = new ToolRegistry();
    const nameOf = new Map<string, string>();
    const bindingOf = new Map<string, string>();
    let checked = 0;
    fc.assert(
      fc.property(id, fc.constantFrom(Customer, Checking, Savings), (raw, cls) => {
        if (typeof raw === "string" && raw.trim() === "") return;
        const instance = cls === Customer ? new Customer(raw) : new cls(String(raw));
        const outcome = registry.add(bindProviderTools(instance));
        for (const tool of [
          ...outcome.added,
          ...outcome.replaced.map((r) => r.next),
          ...outcome.alreadyBound,
        ]) {
          const binding = `${cls.name}|${typeof (instance as { id: unknown }).id}:${String(raw)}|${tool.origin!.methodName}`;
          expect(tool.name).toMatch(/^[a-zA-Z_][a-zA-Z0-9_-]{0,63}$/);
          expect(nameOf.get(binding) ?? tool.name).toBe(tool.name); // a binding keeps its name
          expect(bindingOf.get(tool.name) ?? binding).toBe(binding); // a name keeps its binding
          nameOf.set(binding, tool.name);
          bindingOf.set(tool.name, binding);
          checked++;
        }
      }),
      { numRuns: 10_000 },
    );
    expect(checked).toBeGreaterThan(10_000);
  });
});

describe("values that used to end a run or take minutes", () => {
  it("H07 a 256 KB typed array and a Buffer are summarized, fast", async () => {
    const found = returning("bytes", () => ({ a: new Uint8Array(256 * 1024), b: Buffer.alloc(64 * 1024) }));
    const { model, runner: r } = runner([call("bytes"), text("done")], found);
    const started = performance.now();
    await r.run("q");
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(lastResults(model)).toEqual(['{"a":"[Uint8Array: 262144 bytes]","b":"[Buffer: 65536 bytes]"}']);
  });

  it("H08 an object with 80 000 keys is cut at the budget without walking the rest, fast", async () => {
    const wide = Object.fromEntries(Array.from({ length: 80_000 }, (_, i) => [`k${i}`, i]));
    const { model, runner: r } = runner(
      [call("wide"), text("done")],
      returning("wide", () => wide),
    );
    const started = performance.now();
    await r.withMaxResultChars(1_000).run("q");
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(lastResults(model)[0]).toMatch(
      /\n\[truncated: the result is longer than 1000 characters; the first 1000 are shown\]$/,
    );
  });

  it("H09 a getter that throws while the result is read: an error result, the run goes on", async () => {
    const tricky = {
      get boom(): string {
        throw new Error("getter exploded");
      },
    };
    const { model, runner: r } = runner(
      [call("tricky"), text("done")],
      returning("tricky", () => tricky),
    );
    expect((await r.run("q")).result).toBe("done");
    expect(lastResults(model)).toEqual(['The result of "tricky" could not be read: getter exploded']);
  });

  it("H10 a Proxy whose trap throws: an error result, the run goes on", async () => {
    const hostile = new Proxy(
      {},
      {
        ownKeys: () => {
          throw new Error("trap");
        },
        // `then` is read when the tool's value is awaited; every other read throws.
        get: (_, key) => {
          if (key === "then") return undefined;
          throw new Error("trap");
        },
      },
    );
    const { model, runner: r } = runner(
      [call("proxy"), text("done")],
      returning("proxy", () => hostile),
    );
    expect((await r.run("q")).result).toBe("done");
    expect(lastResults(model)[0]).toMatch(/^The result of "proxy" could not be read: trap/);
  });

  it("H11 a provider whose id getter throws is skipped with a notice", async () => {
    @ToolProvider()
    class Broken {
      get id(): string {
        throw new Error("no id today");
      }
      @LlmTool("Never bound")
      act(): string {
        return "x";
      }
    }
    const { model, runner: r } = runner(
      [call("broken"), text("done")],
      returning("broken", () => new Broken()),
    );
    await r.run("q");
    expect(lastResults(model)[0]).toContain(
      '[Cannot expose tools of Broken: reading its id property "id" threw: no id today; no tools were added for it.]',
    );
  });

  it("H12 a tool that throws a revoked Proxy: an error result", async () => {
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    const { model, runner: r } = runner(
      [call("revoked"), text("done")],
      returning("revoked", () => {
        throw proxy;
      }),
    );
    expect((await r.run("q")).result).toBe("done");
    expect(lastResults(model)).toEqual(['Tool "revoked" failed: (the thrown value could not be read)']);
  });

  it("H13 arguments nested 10 000 levels deep: an error result, not a stack overflow", async () => {
    const deep = "[".repeat(10_000) + "]".repeat(10_000);
    const { model, runner: r } = runner(
      [{ toolCalls: [{ toolName: "echo", input: `{"a":${deep}}` }] }, text("done")],
      returning("echo", () => "ran"),
    );
    expect((await r.run("q")).result).toBe("done");
    expect(lastResults(model)).toEqual([
      'Invalid arguments for "echo": the arguments are nested more than 64 levels deep. Send a JSON object keyed by parameter name.',
    ]);
  });

  it("H14 a number JSON cannot carry (1e999 → Infinity) is rejected", async () => {
    const { model, runner: r } = runner(
      [{ toolCalls: [{ toolName: "echo", input: '{"n": 1e999}' }] }, text("done")],
      returning("echo", () => "ran"),
    );
    await r.run("q");
    expect(lastResults(model)).toEqual([
      'Invalid arguments for "echo": the value at "n" is not a finite number.',
    ]);
  });

  it("H15 a tool timeout past Node's timer limit is refused when set", () => {
    expect(() => new PromptRunner({ model: mockModel() }).withToolTimeout(2 ** 31)).toThrow(
      InvalidSettingError,
    );
  });

  it("H16 an async observer that rejects does not reach the process", async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on("unhandledRejection", onUnhandled);
    try {
      const run = await new PromptRunner({ model: mockModel(text("done")) })
        .withObserver(async () => {
          throw new Error("observer failed");
        })
        .run("q");
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(run.result).toBe("done");
      expect(unhandled).toEqual([]);
    } finally {
      process.off("unhandledRejection", onUnhandled);
    }
  });

  it("H17 an unclosed code fence followed by 160 000 spaces is judged fast", async () => {
    const schema = { type: "object", properties: { n: { type: "number" } }, required: ["n"] } as const;
    const model = mockModel(text("```json" + " ".repeat(160_000)), text('{"n": 1}'));
    const started = performance.now();
    const run = await new PromptRunner({ model }).run("q", { output: schema });
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(run.result).toEqual({ n: 1 });
  });

  it("H18 the validator cache is bounded: 2 000 runs with their own output schemas keep at most 500, and ajv at most 1 000 compiled", async () => {
    for (let i = 0; i < 2_000; i++) {
      const schema = { type: "object", properties: { [`f${i}`]: { type: "number" } } } as const;
      await new PromptRunner({ model: mockModel(text("{}")) }).run("q", { output: schema });
    }
    expect(validatorCacheSize()).toBeLessThanOrEqual(500);
    // ajv keeps what it compiled in its code scope (removeSchema does not prune it): generations of ajv do
    expect(compiledSchemasHeld()).toBeLessThanOrEqual(1_000);
  }, 0); // 2 000 whole runs: no time limit (over a minute on a loaded machine; the work is bounded)
});

describe("what reaches the model", () => {
  it("H19 a thrown object's @Exclude fields never reach the model", async () => {
    class Failure {
      @Exclude() repo = "postgres://admin:hunter2@db/prod";
      constructor(public code: number) {}
    }
    const { model, runner: r } = runner(
      [call("fails"), text("done")],
      returning("fails", () => {
        throw new Failure(7);
      }),
    );
    await r.run("q");
    expect(lastResults(model)).toEqual(['Tool "fails" failed: {"code":7}']);
  });

  it("H20 error text, validation error lists and notices are held to withMaxResultChars", async () => {
    const items = defineTool<{ ids: number[] }>({
      name: "items",
      description: "items",
      inputSchema: {
        type: "object",
        properties: { ids: { type: "array", items: { type: "number" } } },
        required: ["ids"],
      },
      execute: () => Array.from({ length: 10_000 }, () => new Customer(Number.NaN)),
    });
    const loud = returning("loud", () => {
      throw new Error("e".repeat(100_000));
    });
    const model = mockModel(
      call("items", { ids: Array.from({ length: 100_000 }, () => "x") }),
      call("items", { ids: [1] }),
      call("loud"),
      text("done"),
    );
    await new PromptRunner({ model })
      .withTools(items, loud)
      .withToolProviderDiscovery()
      .withMaxResultChars(300) // below 20 problem lines (H28), so the list is cut too
      .run("q");
    const seen = [
      toolResultsSeenAt(model, 1)[0]!,
      toolResultsSeenAt(model, 2)[1]!,
      toolResultsSeenAt(model, 3)[2]!,
    ];
    for (const text of seen) expect(text.length).toBeLessThan(1_000);
    expect(seen[0]).toContain("[truncated:");
  });

  it("H21 a final answer with an own __proto__ key is sent back for repair", async () => {
    const schema = { type: "object", properties: { n: { type: "number" } } } as const;
    const model = mockModel(text('{"n": 1, "__proto__": {"admin": true}}'), text('{"n": 2}'));
    const run = await new PromptRunner({ model }).run("q", { output: schema });
    expect(run.result).toEqual({ n: 2 });
    expect(JSON.stringify(model.doGenerateCalls[1]!.prompt)).toContain(
      'the key \\"__proto__\\" is not allowed',
    );
  });

  it("H22 two calls with one id in one message: the second gets an error result and does not run", async () => {
    let runs = 0;
    const once = returning("once", () => ++runs);
    const model = mockModel(
      () => ({ toolCalls: [{ toolName: "once" }, { toolName: "once" }] }),
      text("done"),
    );
    // Both scripted calls get the same id.
    const fixed = model.doGenerate.bind(model);
    model.doGenerate = async (options) => {
      const result = await fixed(options);
      return {
        ...result,
        content: result.content.map((p) => (p.type === "tool-call" ? { ...p, toolCallId: "dup" } : p)),
      };
    };
    await new PromptRunner({ model }).withTools(once).run("q");
    expect(runs).toBe(1);
    expect(lastResults(model)).toEqual([
      "1",
      'Not run: another call in this message already has the id "dup".',
    ]);
  });

  it("H23 a 100 000-character unknown tool name gets a short answer, fast", async () => {
    const { model, runner: r } = runner(
      [call("x".repeat(100_000)), text("done")],
      returning("echo", () => "ran"),
    );
    const started = performance.now();
    await r.run("q");
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(lastResults(model)[0]!.length).toBeLessThan(300);
    expect(lastResults(model)[0]).toContain("… (100000 characters)");
  });

  it("H24 empty and blank tool names get a clear error result", async () => {
    const { model, runner: r } = runner(
      [{ toolCalls: [{ toolName: "" }, { toolName: "  " }] }, text("done")],
      returning("echo", () => "ran"),
    );
    await r.run("q");
    expect(lastResults(model)).toEqual([
      "The tool name is empty. Available tools: echo.",
      "The tool name is empty. Available tools: echo.",
    ]);
  });

  it("H25 generator methods and prototype names are refused when the class is defined", () => {
    const define = (body: () => unknown) => () => body();
    expect(
      define(() => {
        class G {
          @LlmTool("gen")
          *items(): Generator<number> {
            yield 1;
          }
        }
        return G;
      }),
    ).toThrow(DecoratorMisuseError);
    expect(
      define(() => {
        class G {
          @LlmTool("gen")
          async *items(): AsyncGenerator<number> {
            yield 1;
          }
        }
        return G;
      }),
    ).toThrow(/a generator method cannot be a tool/);
    expect(
      define(() => {
        class P {
          @LlmTool({ description: "proto", name: "__proto__" })
          act(): number {
            return 1;
          }
        }
        return P;
      }),
    ).toThrow(/the tool name "__proto__" is reserved/);
  });

  it("H26 an abort ends the run within a bound when the model call or a strategy ignores the signal", async () => {
    const never = new MockLanguageModelV3({ doGenerate: () => new Promise<never>(() => {}) });
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error("stop")), 50);
    const started = performance.now();
    const error = await new PromptRunner({ model: never })
      .run("q", { signal: controller.signal })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ToolLoopAbortedError);
    expect(performance.now() - started).toBeLessThan(1_000);

    const second = new AbortController();
    const hangs = {
      evaluateToolResult: () =>
        new Promise<never>(() => setTimeout(() => second.abort(new Error("stop")), 20)),
    };
    const { runner: r } = runner(
      [call("echo"), text("never")],
      returning("echo", () => "ran"),
    );
    const failed = await r
      .withInjectionStrategy(hangs)
      .run("q", { signal: second.signal })
      .catch((e: { conversationHistory: unknown[] }) => e);
    expect(failed).toBeInstanceOf(ToolLoopAbortedError);
  });
});

describe("docs/reliability.md", () => {
  it("states the behaviour of every H case", () => {
    const doc = readFileSync("docs/reliability.md", "utf8");
    for (const id of HOSTILE_CASE_IDS)
      expect(doc, `${id} missing from docs/reliability.md`).toContain(`| ${id} |`);
  });
});
