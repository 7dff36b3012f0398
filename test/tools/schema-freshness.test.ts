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

  it("a run fails before its first model call when any tool class's schema is stale or missing", async () => {
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
    const error = await new PromptRunner({ model })
      .withTools(findBook)
      .withToolProviderDiscovery()
      .run("q")
      .catch((e: unknown) => e);
    // Library is checked first (defined first); either way nothing ran.
    expect(error).toBeInstanceOf(StaleToolSchemaError);
    expect(model.doGenerateCalls).toHaveLength(0);
    registerToolSchemas({
      tools: {
        "Library.reserve": {
          parameters: ["memberId", "days"],
          inputSchema: {
            type: "object",
            properties: { memberId: { type: "string" }, days: { type: "number" } },
          },
        },
      },
      outputs: {},
    });
    const missing = await new PromptRunner({ model })
      .withTools(findBook)
      .withToolProviderDiscovery()
      .run("q")
      .catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(MissingToolSchemaError);
    expect((missing as Error).message).toMatch(/^No input schema for Book.renew/);
    expect(model.doGenerateCalls).toHaveLength(0);
  });
});
