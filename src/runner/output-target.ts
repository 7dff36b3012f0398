import { EntityToolsError } from "../errors/entity-tools-error.js";
import { classTransformer } from "../lazy/class-transformer.js";
import {
  declaredNameOf,
  findGeneratedClass,
  findOutputSchema,
  findOutputType,
  otherKeysNamedAs,
  schemaCommand,
  sourceNameOf,
} from "../schema/schema-store.js";
import { isRecord, toClassInstance } from "../tools/typed-input.js";
import type { JsonSchema } from "../schema/json-schema.js";

/** A class to instantiate from the answer, or a JSON Schema the answer must match. */
export type OutputTarget<T> = (abstract new (...args: never[]) => T) | JsonSchema;

/** An output target with its schema found and its way of building the result. */
export interface ResolvedOutput<T> {
  readonly schema: JsonSchema;
  build(value: unknown): T;
}

/**
 * A class used as `createObject` target has no generated schema. The message gives the command that
 * generates it, asking for the class with `--type` by its key in the module (`--type billing/customer.Summary`
 * when other classes of the project are named `Summary` too), and how to find that key when the run cannot
 * know it.
 */
export class MissingOutputSchemaError extends EntityToolsError {
  /** This class's name, written out so that a minified bundle keeps it. */
  static override readonly errorName: string = "MissingOutputSchemaError";

  constructor(
    /** The output class without a schema, by its declared name (`Summary`). */
    readonly className: string,
    /**
     * What the schema CLI's `--type` takes for it: its key in the generated module; `undefined` when other
     * classes have its name, so its key is its file's, which the run cannot know.
     */
    readonly typeKey: string | undefined,
    /** The keys of the registered classes that have its name (when `typeKey` is unknown). */
    sameNamed: readonly string[] = [],
  ) {
    super(
      `No output schema for class ${className}: generate it with \`${schemaCommand()} --type ` +
        `${typeKey ?? "<key>"}\` and pass ` +
        "the module to registerToolSchemas() (a class passed to createObject or run({ output }) in the " +
        "project's sources is found without --type)" +
        (typeKey === undefined ? keyHint(className, sameNamed) : ""),
    );
  }
}

/** How the CLI keys a class whose name other classes have too. */
function keyHint(name: string, sameNamed: readonly string[]): string {
  return (
    `. Its <key>: other classes are named ${name} too (${sameNamed.join(", ")}), so it is the class's file ` +
    `from the project's folder, without the extension, then .${name}, or <prefix>.${name} for a ` +
    `@ToolProvider with a literal prefix; \`--type ${name}\` lists them`
  );
}

/** The output class's name, and its key for `--type` when the run can tell it. */
function missingSchemaOf(cls: Function): MissingOutputSchemaError {
  const key = sourceNameOf(cls);
  const others = otherKeysNamedAs(cls);
  // A class the module names (as a parameter class) has its key; a class it does not name, of a name it
  // gives other classes, has its file's (the CLI qualifies every class of a shared name).
  const known = findGeneratedClass(key) === cls || others.length === 0;
  return new MissingOutputSchemaError(declaredNameOf(cls), known ? key : undefined, others);
}

/**
 * Resolves a `createObject` target: a class (its generated schema; the answer becomes an instance through
 * class-transformer, its dates and nested classes converted as the generated module says, the same way
 * as a tool's typed input) or a JSON Schema object (the answer is returned as parsed).
 */
export function resolveOutput<T>(target: OutputTarget<T>): ResolvedOutput<T> {
  if (typeof target !== "function") return { schema: target, build: (value) => value as T };
  const schema = findOutputSchema(target);
  if (!schema) throw missingSchemaOf(target);
  const cls = target as unknown as new () => T;
  const type = findOutputType(target);
  return {
    schema,
    build: (value) =>
      type?.kind === "class" && isRecord(value)
        ? (toClassInstance(cls, value, type.fields) as T)
        : classTransformer.get().plainToInstance(cls, value),
  };
}
