// The CLI parses JSDoc as `tsc` does (in full only in the project's own files), yet a parameter whose type
// is declared elsewhere (a library's typings, a file outside the tsconfig's `include`) keeps the
// descriptions and annotations its JSDoc gives: those files are parsed again in full.
import path from "node:path";
import { expect, it } from "vitest";
import { generateSchemas } from "../../src/schema/generate-schemas.js";
import { scratchProject } from "../support/scratch-project.js";

it("descriptions and @minimum from a library's typings and from a file outside the project reach the schema", () => {
  const root = scratchProject(
    {
      "node_modules/geo/package.json": JSON.stringify({ name: "geo", types: "index.d.ts" }),
      "node_modules/geo/index.d.ts":
        "/** A point on the map. */\nexport interface Point {\n  /** Degrees north. @minimum -90 */\n  lat: number;\n  /** Degrees east. */\n  lon: number;\n}\n",
      "shared/unit.ts": '/** How distances are written. */\nexport type Unit = "km" | "mi";\n',
      "src/tools.ts":
        'import type { Point } from "geo";\nimport type { Unit } from "../shared/unit.js";\n' +
        "declare function LlmTool(d: string): MethodDecorator;\n" +
        'export class Maps {\n  @LlmTool("Distance") distance(from: Point, unit: Unit): number { return 0; }\n}\n',
    },
    "src/*.ts",
  );
  const { tools } = generateSchemas({ project: path.join(root, "tsconfig.json") });
  expect(tools["Maps.distance"]?.inputSchema.properties).toEqual({
    from: {
      type: "object",
      description: "A point on the map.",
      properties: {
        lat: { type: "number", description: "Degrees north.", minimum: -90 },
        lon: { type: "number", description: "Degrees east." },
      },
      additionalProperties: false,
      required: ["lat", "lon"],
    },
    unit: { description: "How distances are written.", enum: ["km", "mi"], type: "string" },
  });
}, 0); // a whole compiler run: no time limit
