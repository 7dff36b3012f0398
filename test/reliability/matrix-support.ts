// Shared pieces of the reliability matrix: a tool group full of traps, providers with awkward ids, and
// a runner over a MockLanguageModelV3 that plays given turns.
import { LlmTool, PromptRunner, ToolProvider, defineTool, type AnyTool } from "entity-tools";
import { mockModel, type MockTurn } from "../support/mock-model.js";

/** Matrix cases tested outside the table (their own setup), listed so the doc check covers them. */
export const LOOSE_CASE_IDS = ["R33", "R34", "R35", "R36"] as const;

@ToolProvider({ prefix: "item" })
export class Item {
  constructor(public id: unknown) {}

  @LlmTool("Describe this item")
  describe(): string {
    return `item ${String(this.id)}`;
  }
}

/** Tools whose class also has methods, getters and fields that must never be callable. */
export class TrapTools {
  secret = "field";

  @LlmTool({
    description: "Echo a message a number of times",
    parameters: {
      type: "object",
      properties: { message: { type: "string" }, times: { type: "integer" } },
      required: ["message"],
      additionalProperties: false,
    },
  })
  echo(message: string, times = 1): string {
    return Array(times).fill(message).join(" ");
  }

  notATool(): string {
    return "must never run";
  }

  get computed(): string {
    return "must never run";
  }
}

const ids = defineTool<{ ids: unknown[] }>({
  name: "items",
  description: "Return items with these ids",
  inputSchema: { type: "object", properties: { ids: { type: "array" } }, required: ["ids"] },
  execute: ({ ids: list }) => list.map((id) => new Item(id)),
});

/** Tools that misbehave in every way a tool can. */
export function misbehavingTools(): AnyTool[] {
  const returning = (name: string, value: () => unknown) =>
    defineTool({ name, description: name, execute: value });
  const cyclic: Record<string, unknown> = { name: "cycle" };
  cyclic.self = cyclic;
  return [
    ids,
    returning("throwString", () => {
      throw "plain string failure";
    }),
    returning("throwObject", () => {
      throw { code: 42, detail: "object failure" };
    }),
    returning("hang", () => new Promise(() => {})),
    returning("cyclic", () => cyclic),
    returning("huge", () => "x".repeat(10 * 1024 * 1024)),
    returning("nothing", () => undefined),
    returning("rejects", () => Promise.reject(new Error("async failure"))),
    returning("exotic", () => ({
      big: 10n ** 20n,
      when: new Date("2026-01-01T00:00:00Z"),
      tags: new Set(["a"]),
      map: new Map([["k", 1]]),
    })),
  ];
}

export function matrixRunner(...turns: MockTurn[]) {
  const model = mockModel(...turns);
  const runner = new PromptRunner({ model, modelSettings: { maxRetries: 0 } })
    .withTools(new TrapTools(), ...misbehavingTools())
    .withToolProviderDiscovery()
    .withToolTimeout(100)
    .withMaxToolIterations(6);
  return { model, runner };
}
