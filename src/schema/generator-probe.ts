// The completions this CLI puts on typescript-json-schema go through its private methods (mapped-records.ts,
// branded-primitives.ts), which another release may lack or use otherwise; each is checked by what it does
// on a small in-memory program before any project is read. The program parses no lib file (a few
// milliseconds): it declares the global types a program without lib files needs.
import type * as TS from "typescript";
import type { JsonSchema } from "./json-schema.js";
import type { JsonSchemaGenerator } from "typescript-json-schema";
import { inlineRefs } from "./inline-refs.js";
import ts, { buildGenerator, GENERATOR_SETTINGS } from "./typescript.js";

const PROBE_FILE = "/entity-tools-probe/probe.ts";
const GLOBALS = `interface Array<T> { length: number; [n: number]: T; }
interface Boolean {} interface CallableFunction {} interface Function {} interface IArguments {}
interface NewableFunction {} interface Number {} interface Object {} interface RegExp {} interface String {}
`;

/** Puts a completion on a generator; false when it cannot (the generator lacks the methods it goes through). */
export type GeneratorCompletion = (generator: JsonSchemaGenerator, checker: TS.TypeChecker) => boolean;

/**
 * A completion of the generator, put on it only where it does what it should: the property `r` of
 * `interface Probe` in `probe` must get the schema `expected`. Found out once per process, and again when
 * `install` is replaced (the seam tests use to see the fallback; the CLI never changes it).
 */
export class CheckedCompletion {
  private probed: { readonly install: GeneratorCompletion; readonly works: boolean } | undefined;

  constructor(
    public install: GeneratorCompletion,
    private readonly probe: string,
    private readonly expected: JsonSchema,
  ) {}

  /** Whether the completion works with the installed typescript-json-schema (else its types are refused). */
  get works(): boolean {
    const install = this.install;
    if (this.probed?.install !== install)
      this.probed = { install, works: sameSchema(probedSchema(this.probe, install), this.expected) };
    return this.probed.works;
  }

  /** Completes `generator` where the completion works; otherwise leaves it as it is. */
  applyTo(generator: JsonSchemaGenerator, checker: TS.TypeChecker): void {
    if (this.works) this.install(generator, checker);
  }
}

/**
 * The schema a generator completed by `install` gives the property `r` of `interface Probe` declared in
 * `source`; undefined when `install` could not complete it or the generator failed.
 */
function probedSchema(source: string, install: GeneratorCompletion): JsonSchema | undefined {
  const text = `${source}\n${GLOBALS}`;
  try {
    const options: TS.CompilerOptions = { noLib: true, strict: true, noEmit: true, types: [] };
    const host = ts.createCompilerHost(options);
    host.getSourceFile = (name, languageVersion) =>
      name === PROBE_FILE ? ts.createSourceFile(name, text, languageVersion, true) : undefined;
    host.fileExists = (name) => name === PROBE_FILE;
    host.readFile = (name) => (name === PROBE_FILE ? text : undefined);
    const program = ts.createProgram([PROBE_FILE], options, host);
    const generator = buildGenerator(program, GENERATOR_SETTINGS, [PROBE_FILE]);
    if (!generator || !install(generator, program.getTypeChecker())) return undefined;
    const schema = inlineRefs(generator.getSchemaForSymbol("Probe") as JsonSchema);
    return (schema.properties as Record<string, JsonSchema> | undefined)?.["r"];
  } catch {
    return undefined; // a generator that throws on it does not read it either
  }
}

/** Whether two schemas are the same JSON (keys in the same order, as the generator writes them). */
function sameSchema(a: JsonSchema | undefined, b: JsonSchema): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
