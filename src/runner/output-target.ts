import { EntityToolsError } from "../errors/entity-tools-error.js";
import { classTransformer } from "../lazy/class-transformer.js";
import { findOutputSchema, findOutputType, schemaCommand } from "../schema/schema-store.js";
import { isRecord, toClassInstance } from "../tools/typed-input.js";
import type { JsonSchema } from "../schema/json-schema.js";

/** A class to instantiate from the answer, or a JSON Schema the answer must match. */
export type OutputTarget<T> = (abstract new (...args: never[]) => T) | JsonSchema;

/** An output target with its schema found and its way of building the result. */
export interface ResolvedOutput<T> {
  readonly schema: JsonSchema;
  build(value: unknown): T;
}

/** A class used as `createObject` target has no generated schema. */
export class MissingOutputSchemaError extends EntityToolsError {
  /** This class's name, written out so that a minified bundle keeps it. */
  static override readonly errorName: string = "MissingOutputSchemaError";

  constructor(
    /** The output class without a schema. */
    readonly className: string,
  ) {
    super(
      `No output schema for class ${className}: generate schemas with \`${schemaCommand()}\` (classes passed to ` +
        "createObject are found automatically, others with --type) and pass the module to registerToolSchemas()",
    );
  }
}

/**
 * Resolves a `createObject` target: a class (its generated schema; the answer becomes an instance through
 * class-transformer, its dates and nested classes converted as the generated module says, the same way
 * as a tool's typed input) or a JSON Schema object (the answer is returned as parsed).
 */
export function resolveOutput<T>(target: OutputTarget<T>): ResolvedOutput<T> {
  if (typeof target !== "function") return { schema: target, build: (value) => value as T };
  const schema = findOutputSchema(target);
  if (!schema) throw new MissingOutputSchemaError(target.name);
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
