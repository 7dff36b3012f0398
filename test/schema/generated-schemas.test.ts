import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { emitSchemaModule } from "../../src/schema/emit-schema-module.js";
import { generateSchemas } from "../../src/schema/generate-schemas.js";
import { GENERATED_MODULES } from "./generated-modules.js";

// One generation per project (each takes seconds), shared by the assertions below.
const fresh = new Map(
  GENERATED_MODULES.map((m) => [m.out, generateSchemas({ project: m.project, outputTypes: m.types })]),
);

describe("committed generated schema modules", () => {
  for (const { project, out } of GENERATED_MODULES) {
    it(`${out} is committed and matches a fresh generation from ${project}`, () => {
      expect(existsSync(out), `${out} is missing: run npm run schemas`).toBe(true);
      expect(readFileSync(out, "utf8"), `${out} is stale: run npm run schemas`).toBe(
        emitSchemaModule(fresh.get(out)!, out),
      );
    });
  }
});

describe("generated tool schemas", () => {
  const { tools, outputs } = fresh.get("test/fixtures/generated/tool-schemas.ts")!;

  it("gives names, types, optional and defaulted parameters, enums, arrays, nested types and dates", () => {
    expect(tools["Customer.findOrders"]).toEqual({
      parameters: ["statuses", "since", "shipTo"],
      types: { since: { kind: "date" } },
      inputSchema: {
        type: "object",
        properties: {
          statuses: {
            description: "Statuses to include",
            type: "array",
            items: { type: "string", enum: ["cancelled", "open", "shipped"] },
          },
          since: { type: "string", format: "date-time" },
          shipTo: {
            type: "object",
            properties: { street: { type: "string" }, city: { type: "string" } },
            required: ["city", "street"],
            additionalProperties: false,
          },
        },
        required: ["statuses"],
        additionalProperties: false,
      },
    });
  });

  it("takes descriptions from JSDoc @param and defaults from literals", () => {
    expect(tools["Customer.getRecentOrders"]?.inputSchema.properties.limit).toEqual({
      type: "number",
      default: 10,
      description: "How many orders, newest first",
    });
    expect(tools["Customer.getRecentOrders"]?.inputSchema.required).toBeUndefined();
  });

  it("is self-contained: no $ref and no $schema anywhere", () => {
    const text = JSON.stringify({ tools, outputs });
    expect(text).not.toContain("$ref");
    expect(text).not.toContain("$schema");
  });

  it("includes classes named as run(prompt, { output })", () => {
    expect(outputs.OrderCount).toEqual({
      description: "A structured-output target named through `run(prompt, { output })`.",
      type: "object",
      properties: { count: { type: "number" } },
      required: ["count"],
      additionalProperties: false,
    });
  });

  it("includes the classes passed to createObject", () => {
    expect(outputs.Answer).toMatchObject({
      type: "object",
      required: ["averageSpend", "customerName"],
      properties: { notes: { type: "array", items: { type: "string" } } },
    });
  });
});
