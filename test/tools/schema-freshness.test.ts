// A schema that is missing or no longer matches its method fails before the first model call.
import { describe, expect, it } from "vitest";
import {
  bindObjectTools,
  LlmTool,
  MissingToolSchemaError,
  PromptRunner,
  registerToolSchemas,
  StaleToolSchemaError,
  ToolProvider,
} from "entity-tools";
import { call, mockModel, text } from "../support/mock-model.js";

class Library {
  @LlmTool("Reserve a book for a member")
  reserve(memberId: string, days: number): string {
    return `${memberId} for ${days} days`;
  }
}

// The schema as the CLI wrote it before the two parameters were swapped in the source.
registerToolSchemas({
  tools: {
    "Library.reserve": {
      parameters: ["days", "memberId"],
      inputSchema: {
        type: "object",
        properties: { days: { type: "number" }, memberId: { type: "string" } },
        required: ["days", "memberId"],
        additionalProperties: false,
      },
    },
  },
  outputs: {},
  classes: { Library },
});

describe("schema freshness", () => {
  it("a stale schema is refused when the tool is bound, naming the method and the command", () => {
    expect(() => bindObjectTools(new Library())).toThrow(StaleToolSchemaError);
    expect(() => bindObjectTools(new Library())).toThrow(
      "The generated schema of Library.reserve is stale: the method takes (memberId, days) but the schema describes (days, memberId). Run `npx entity-tools schemas --project tsconfig.json --out src/generated/tool-schemas.ts` again.",
    );
  });

  it("with discovery on, a run fails before its first model call when a provider class's schema is missing", async () => {
    @ToolProvider()
    class Book {
      constructor(public id: string) {}
      @LlmTool("Renew this book")
      renew(weeks: number): string {
        return `renewed for ${weeks}`;
      }
    }
    const model = mockModel(call("findBook"), text("never"));
    const findBook = {
      name: "findBook",
      description: "Find",
      inputSchema: { type: "object", properties: {} },
      execute: () => new Book("b1"),
    } as const;
    const missing = await new PromptRunner({ model })
      .withTools(findBook)
      .withToolProviderDiscovery()
      .run("q")
      .catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(MissingToolSchemaError);
    expect((missing as Error).message).toMatch(/^No input schema for Book.renew/);
    expect(model.doGenerateCalls).toHaveLength(0);
  });

  it("a class the run cannot reach does not fail it: Library's stale schema matters only to runs given a Library", async () => {
    const model = mockModel(text("done"));
    const run = await new PromptRunner({ model }).run("q");
    expect(run.result).toBe("done");
  });

  it("the hint names the command that wrote the registered module, with its own paths", () => {
    registerToolSchemas({
      tools: {},
      outputs: {},
      command: "npx entity-tools schemas --project app/tsconfig.json --out app/schemas.ts",
    });
    expect(() => bindObjectTools(new Library())).toThrow(
      "Run `npx entity-tools schemas --project app/tsconfig.json --out app/schemas.ts` again.",
    );
  });
});
