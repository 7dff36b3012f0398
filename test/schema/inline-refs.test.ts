import { describe, expect, it } from "vitest";
import { inlineRefs } from "../../src/schema/inline-refs.js";

describe("inlineRefs", () => {
  it("inlines references, keeping sibling keywords, and drops $schema", () => {
    const schema = {
      $schema: "http://json-schema.org/draft-07/schema#",
      type: "object",
      properties: { home: { $ref: "#/definitions/Address", description: "Where they live" } },
      definitions: { Address: { type: "object", properties: { city: { type: "string" } } } },
    };
    expect(inlineRefs(schema)).toEqual({
      type: "object",
      properties: {
        home: { type: "object", properties: { city: { type: "string" } }, description: "Where they live" },
      },
    });
  });

  it("keeps only recursive definitions, as references", () => {
    const schema = {
      type: "object",
      properties: { root: { $ref: "#/definitions/Node" } },
      definitions: {
        Node: {
          type: "object",
          properties: { children: { type: "array", items: { $ref: "#/definitions/Node" } } },
        },
        Unused: { type: "string" },
      },
    };
    const result = inlineRefs(schema);
    expect(result.properties).toEqual({
      root: {
        type: "object",
        properties: { children: { type: "array", items: { $ref: "#/definitions/Node" } } },
      },
    });
    expect(Object.keys(result.definitions as object)).toEqual(["Node"]);
  });
});
