// G21 (docs/reliability.md, "declaring tools"): `Record<string, V>` gets the index signature's schema
// through two private methods of typescript-json-schema 0.68 (src/schema/mapped-records.ts). The completion
// is checked by what it does; where it cannot be put on the generator, or does not give a `Record` the
// index signature's schema, a mapped type over string keys is refused naming file, class, method and
// parameter (never the schema only `{}` satisfies), and an index signature is still generated.
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { generateSchemas } from "../../src/schema/generate-schemas.js";
import { mappedRecordHook } from "../../src/schema/mapped-records.js";
import { scratchProject } from "../support/scratch-project.js";

const DECLARE = "declare function LlmTool(d: string): MethodDecorator;\n";
const project = (files: Record<string, string>) => path.join(scratchProject(files, "*.ts"), "tsconfig.json");

const original = mappedRecordHook.install;
afterEach(() => {
  mappedRecordHook.install = original;
});

const unavailable: Record<string, typeof mappedRecordHook.install> = {
  "the generator lacks the methods it goes through (another typescript-json-schema)": () => false,
  "the completion is put on the generator but does not change its schemas": () => true,
};

describe.each(Object.entries(unavailable))("G21 when %s", (_, install) => {
  it("a Record<string, V> parameter is refused naming file, class, method and parameter, with what to write instead", () => {
    mappedRecordHook.install = install;
    expect(mappedRecordHook.works).toBe(false);
    const tools = `${DECLARE}export interface Tally { byStatus: Record<string, number> }
export class Tools {
  @LlmTool("t")
  tally(tally: Tally): string { return ""; }
}\n`;
    expect(() => generateSchemas({ project: project({ "tools.ts": tools }) })).toThrow(
      /tools\.ts:5: Tools\.tally parameter "tally" \(at tally\.byStatus\) has type Record<string, number>, which is a mapped type over string keys, whose schema the installed typescript-json-schema does not generate \(it would accept only \{\}\): write it as an index signature, \{ \[key: string\]: number \}, or npm install --save-dev typescript-json-schema@0\.68\./,
    );
  }, 0); // a whole compiler run: no time limit (a loaded machine takes minutes)

  it("an output class's Record<string, V> field is refused naming the class; an index signature parameter is generated", () => {
    mappedRecordHook.install = install;
    const summary = `export class Summary { counts!: Record<string, number>; }
declare const runner: { createObject(target: unknown, prompt: string): unknown };
runner.createObject(Summary, "Sum up");\n`;
    expect(() => generateSchemas({ project: project({ "summary.ts": summary }) })).toThrow(
      /summary\.ts: output class Summary \(at Summary\.counts\) has type Record<string, number>, which is a mapped type over string keys, .* or pass createObject a JSON Schema object instead of the class\.$/,
    );
    const tools = `${DECLARE}export class Tools {
  @LlmTool("t")
  count(counts: { [key: string]: number }): string { return ""; }
}\n`;
    const generated = generateSchemas({ project: project({ "tools.ts": tools }) });
    expect(generated.tools["Tools.count"]!.inputSchema.properties).toEqual({
      counts: { type: "object", additionalProperties: { type: "number" } },
    });
  }, 0);
});

it("G21 with the typescript-json-schema the package is built with, the completion is checked and used", () => {
  expect(mappedRecordHook.works).toBe(true);
});
