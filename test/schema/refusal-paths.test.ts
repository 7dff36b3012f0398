// G33 (docs/reliability.md, hardening round 15): a type JSON cannot carry found inside a parameter's type
// (or an output class's) is refused naming the path to it from the parameter, `parameter "o" (at
// o.lines[].extras) has type Map<string, number>, …`: a field `.name`, an array's element `[]`, an index
// signature's value `[key]`, a tuple's element `[1]` (type-parts.ts). Before, the message named the
// parameter and the inner type only, and the user had to hunt for the field that holds it. A parameter
// that is itself of such a type keeps its message, `parameter "o" has type Map<string, number>, …`.
import { describe, expect, it } from "vitest";
import { oneToolSchemas, outputClass } from "../support/one-tool-project.js";

const generate = (params: string, extra: string) => oneToolSchemas(params, extra, "place");

const MAP = "which is a Map: send a plain object ({ [key: string]: V }) instead.";

describe("G33 a refusal inside a parameter's type names the path to it from the parameter", () => {
  it.each([
    [
      "a field of Omit<Order, 'id'>",
      'o: Omit<Order, "id">',
      "export interface Order { id: string; items: Map<string, number> }\n",
      "o.items",
    ],
    [
      "a field of an array's element",
      'o: Omit<Order, "id">',
      "export interface Line { sku: string; extras: Map<string, number> }\n" +
        "export interface Order { id: string; lines: Line[] }\n",
      "o.lines[].extras",
    ],
    [
      "a field of an index signature's value",
      "o: Stock",
      "export interface Stock { byShelf: Record<string, { counts: Map<string, number> }> }\n",
      "o.byShelf[key].counts",
    ],
    ["a tuple's element", "o: [string, Map<string, number>]", "", "o[1]"],
    [
      "a key that is no identifier",
      "o: Form",
      'export interface Form { "first-name": Map<string, number> }\n',
      'o["first-name"]',
    ],
    [
      "a recursive type (the path first found; the walk ends)",
      "o: Tree",
      "export interface Tree { label: string; kids: Tree[]; counts: Map<string, number> }\n",
      "o.counts",
    ],
  ])(
    "%s",
    (_, params, extra, at) => {
      expect(() => generate(params, extra)).toThrow(
        `Tools.place parameter "o" (at ${at}) has type Map<string, number>, ${MAP}`,
      );
    },
    0, // a whole compiler run: no time limit (a loaded machine takes minutes)
  );

  it("a parameter that is itself a Map keeps its message, with no path", () => {
    expect(() => generate("o: Map<string, number>", "")).toThrow(
      new RegExp(
        `^\\S*tools\\.ts:3: Tools\\.place parameter "o" has type Map<string, number>, which is a Map`,
      ),
    );
  }, 0);

  it("an output class's field is named from the class: Summary.lines[].extras", () => {
    const extra = outputClass(
      "export class Line { sku!: string; extras!: Map<string, number>; }\nexport class Summary { lines!: Line[]; }",
      "Summary",
    );
    expect(() => generate("text: string", extra)).toThrow(
      `tools.ts: output class Summary (at Summary.lines[].extras) has type Map<string, number>, ${MAP}`,
    );
  }, 0);
});
