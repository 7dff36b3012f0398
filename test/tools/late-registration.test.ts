// A schema module registered after a class was bound is read by the next binding ("later registrations
// of the same key win"): its schemas, and the name it gives the class (the default prefix).
import { describe, expect, it } from "vitest";
import { bindProviderTools, LlmTool, registerToolSchemas, ToolProvider } from "entity-tools";

// As a minifier leaves it: the class runs as `Qx`, the module knows its source name.
@ToolProvider()
class Qx {
  constructor(readonly id: string) {}

  @LlmTool("Send this invoice")
  send(to: string): string {
    return `sent to ${to}`;
  }
}

const sendSchema = (description: string) => ({
  parameters: ["to"],
  inputSchema: {
    type: "object" as const,
    properties: { to: { type: "string", description } },
    required: ["to"],
  },
});

describe("a schema module registered after a class was bound", () => {
  it("is read by the next binding: the new schema, and the class's name as the default prefix", () => {
    registerToolSchemas({ tools: { "Qx.send": sendSchema("old") }, outputs: {} });
    const before = bindProviderTools(new Qx("1"));
    expect(before.map((t) => [t.name, t.inputSchema.properties])).toEqual([
      ["qx_1_send", { to: { type: "string", description: "old" } }],
    ]);

    registerToolSchemas({
      tools: { "Invoice.send": sendSchema("new") },
      outputs: {},
      classes: { Invoice: Qx },
    });
    const after = bindProviderTools(new Qx("1"));
    expect(after.map((t) => [t.name, t.inputSchema.properties])).toEqual([
      ["invoice_1_send", { to: { type: "string", description: "new" } }],
    ]);
    expect(before[0]!.inputSchema.properties).toEqual({ to: { type: "string", description: "old" } });
  });
});
