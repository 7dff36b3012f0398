// The completions this CLI puts on typescript-json-schema go through its private methods (mapped-records.ts,
// branded-primitives.ts), which another release may lack or use otherwise; each is checked by what it does
// on a small in-memory program, once per process and only when a type it would change is met (the type
// reading asks before any schema is generated; the generator asks at the type, for one the reading does not
// walk into): a project with no `Record` and no brand does not pay for building that program and its
// generator (about 25 ms of a CLI run for both, more in a fresh process: docs/performance.md, round 15).
// The program parses no lib file: it declares the global types a program without lib files needs.
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

/**
 * Puts a completion on a generator; false when it cannot (the generator lacks the methods it goes through).
 * The completion changes a type only where `ready()`, asked at that type, says it may.
 */
export type GeneratorCompletion = (
  generator: JsonSchemaGenerator,
  checker: TS.TypeChecker,
  ready: () => boolean,
) => boolean;

/**
 * A completion of the generator, which changes a type only where it does what it should: the property `r`
 * of `interface Probe` in `probe` must get the schema `expected`. Found out once per process, the first
 * time a type needs it, and again when `install` is replaced (the seam tests use to see the fallback; the
 * CLI never changes it).
 */
export class CheckedCompletion {
  private probed: { readonly install: GeneratorCompletion; readonly works: boolean } | undefined;
  private probeRuns = 0;

  constructor(
    public install: GeneratorCompletion,
    private readonly probe: string,
    private readonly expected: JsonSchema,
  ) {}

  /** Whether the completion works with the installed typescript-json-schema (else its types are refused). */
  get works(): boolean {
    const install = this.install;
    if (this.probed?.install !== install) {
      this.probeRuns += 1;
      this.probed = { install, works: sameSchema(probedSchema(this.probe, install), this.expected) };
    }
    return this.probed.works;
  }

  /** How many times this process has built the probe's program (tests read it). */
  get probes(): number {
    return this.probeRuns;
  }

  /**
   * Completes `generator`: at the first type the completion would change, the probe is run (unless it
   * has been), and where it fails that type and every other is left as the generator reads it. The
   * completion is put on before it is checked, so it must pass every call through unchanged until then.
   */
  applyTo(generator: JsonSchemaGenerator, checker: TS.TypeChecker): void {
    try {
      this.install(generator, checker, () => this.works);
    } catch {
      // The probe puts it on alike and fails too: what it did put on changes no type (`ready()` is false).
    }
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
    if (!generator || !install(generator, program.getTypeChecker(), () => true)) return undefined;
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
