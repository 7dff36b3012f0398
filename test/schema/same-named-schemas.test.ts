// Two files of one project with a class of one name (test/fixtures/contexts: crm/customer.ts and
// billing/customer.ts each have an `Address`, a parameter class, and a `Summary`, an output class): with the
// module the schema CLI wrote, each tool is offered its own parameter class's schema, and each output class
// its own output schema, checked and converted as that class.
import "../fixtures/contexts/register.js";
import { describe, expect, it } from "vitest";
import { MissingOutputSchemaError, PromptRunner } from "entity-tools";
import { Summary as BillingSummary } from "../fixtures/contexts/billing/customer.js";
import { Address as CrmAddress, Summary as CrmSummary } from "../fixtures/contexts/crm/customer.js";
import { Directory } from "../fixtures/contexts/directory.js";
import { billingSummary, crmSummary } from "../fixtures/contexts/summaries.js";
import { call, mockModel, text } from "../support/mock-model.js";

type Model = ReturnType<typeof mockModel>;

/** The JSON Schema the model was told its answer must match, at model call `index`. */
function answerSchemaAt(model: Model, index: number): { properties: Record<string, unknown> } {
  const system = model.doGenerateCalls[index]!.prompt.find((m) => m.role === "system");
  const marker = "matches this JSON Schema:\n";
  const content = String(system?.content ?? "");
  return JSON.parse(content.slice(content.indexOf(marker) + marker.length).split("\n")[0]!) as {
    properties: Record<string, unknown>;
  };
}

/** The text of what the model read at model call `index`, user and system messages included. */
const readAt = (model: Model, index: number): string => JSON.stringify(model.doGenerateCalls[index]!.prompt);

describe("two output classes named Summary", () => {
  it("createObject(CRM Summary) offers the CRM Summary's schema, refuses billing's shape, returns a CRM Summary", async () => {
    const model = mockModel(
      text(JSON.stringify({ balance: 12, due: "2026-12-01T00:00:00.000Z" })),
      text(JSON.stringify({ city: "Oslo", visits: 3 })),
    );
    const summary = await crmSummary(new PromptRunner({ model }), "c1");
    expect(answerSchemaAt(model, 0)).toMatchObject({
      description: "A CRM customer at a glance (an output class: billing has a Summary of its own).",
      properties: { city: { type: "string" }, visits: { type: "number" } },
      required: ["city", "visits"],
      additionalProperties: false,
    });
    expect(readAt(model, 1)).toContain("Your answer could not be used");
    expect(summary).toBeInstanceOf(CrmSummary);
    expect(summary).toEqual(new CrmSummary("Oslo", 3));
  });

  it("run({ output: billing Summary }) offers billing's schema and returns a billing Summary with a Date", async () => {
    const model = mockModel(text(JSON.stringify({ balance: 12, due: "2026-12-01T00:00:00.000Z" })));
    const summary = await billingSummary(new PromptRunner({ model }), "c1");
    expect(Object.keys(answerSchemaAt(model, 0).properties)).toEqual(["balance", "due"]);
    expect(summary).toBeInstanceOf(BillingSummary);
    expect(summary!.due).toEqual(new Date("2026-12-01T00:00:00.000Z"));
  });
});

describe("two parameter classes named Address", () => {
  it("each context's tool is offered its own Address schema", async () => {
    const model = mockModel(call("find", { id: "c1" }), text("found"));
    await new PromptRunner({ model }).withTools(new Directory()).withToolProviderDiscovery().run("find c1");
    const offered = Object.fromEntries(
      (model.doGenerateCalls[1]!.tools ?? []).map((t) => [t.name, "inputSchema" in t ? t.inputSchema : {}]),
    );
    expect(offered["crm_c1_moveTo"]).toMatchObject({
      properties: { address: { properties: { city: { type: "string" } }, required: ["city"] } },
    });
    expect(offered["billing_c1_invoiceTo"]).toMatchObject({
      properties: { address: { properties: { street: { type: "string" } }, required: ["street"] } },
    });
  });
});

describe("createObject with a class that has no output schema, when classes share its name", () => {
  /** What createObject(cls) threw, and how many model calls it made first. */
  async function missing(cls: abstract new (...args: never[]) => object) {
    const model = mockModel(text("{}"));
    const error = await new PromptRunner({ model }).createObject(cls, "q").catch((e: unknown) => e);
    expect(model.doGenerateCalls).toHaveLength(0);
    expect(error).toBeInstanceOf(MissingOutputSchemaError);
    return error as MissingOutputSchemaError;
  }

  it("a class the module keys by its file (the CRM Address, a parameter class) is asked for by that key", async () => {
    const error = await missing(CrmAddress);
    expect(error.className).toBe("Address");
    expect(error.typeKey).toBe("crm/customer.Address");
    expect(error.message).toMatch(
      /^No output schema for class Address: generate it with `npx entity-tools schemas .*--type crm\/customer\.Address` and pass the module to registerToolSchemas\(\)/,
    );
  });

  it("a class the module does not name, whose name it gives two classes, gets how its key is made and the others' keys", async () => {
    class Summary {
      total!: number;
    }
    const error = await missing(Summary);
    expect(error.typeKey).toBeUndefined();
    expect(error.message).toContain("--type <key>` and pass the module to registerToolSchemas()");
    expect(error.message).toContain(
      "Its <key>: other classes are named Summary too (billing/customer.Summary, crm/customer.Summary), so it " +
        "is the class's file from the project's folder, without the extension, then .Summary, or " +
        "<prefix>.Summary for a @ToolProvider with a literal prefix; `--type Summary` lists them",
    );
  });
});
