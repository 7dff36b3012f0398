import type { ParametersSchema as ToolInputSchema } from "../../decorators/index.js";
import type { JsonSchema } from "./json-schema.js";

/**
 * The declared type of a tool parameter (or of a field inside one), where JSON must be converted to
 * reach it: a `Date`, an instance of a class (named in {@link GeneratedSchemas.classes}), one of several
 * classes (a union), an array of such, a plain object type with such fields, or an index signature
 * (`{ [key: string]: V }`, `Record<string, V>`) with such values. Types that JSON already is (strings,
 * numbers, plain objects of those) have no entry.
 */
export type InputType =
  | { readonly kind: "date" }
  | {
      readonly kind: "class";
      readonly name: string;
      readonly fields?: Readonly<Record<string, InputType>> | undefined;
    }
  | { readonly kind: "object"; readonly fields: Readonly<Record<string, InputType>> }
  | { readonly kind: "array"; readonly items: InputType }
  /**
   * An object type with an index signature (`{ [key: string]: V }`, `Record<string, V>`, `Record<number, V>`):
   * every key kept, the value of each key that is not a named property converted as `values` (V), and the
   * named properties beside the index signature (`{ owner: Pet; [name: string]: Pet }`) as `fields` says.
   */
  | {
      readonly kind: "record";
      readonly values: InputType;
      /** The named properties that need converting, each as its own type. */
      readonly fields?: Readonly<Record<string, InputType>> | undefined;
      /** Every named property (none when absent): never converted as `values`, only as `fields` says. */
      readonly properties?: readonly string[] | undefined;
    }
  | {
      readonly kind: "union";
      readonly members: readonly UnionMember[];
      /** The field whose value tells the members apart (each member types it with its own literals). */
      readonly discriminator?: string | undefined;
    };

/** A literal a discriminator field can hold. */
export type DiscriminatorValue = string | number | boolean;

/**
 * One class of a union of classes (`Cat | Dog`, with `undefined`, `null` or primitives beside them):
 * JSON that is an object becomes an instance of the one member it matches — by the union's discriminator
 * when it has one, else the one member whose own schema it validates against.
 */
export interface UnionMember {
  /** The class, by its name in {@link GeneratedSchemas.classes}. */
  readonly name: string;
  /** Its fields to convert, as a class {@link InputType} has them. */
  readonly fields?: Readonly<Record<string, InputType>> | undefined;
  /** The discriminator's values that select this member (a union with a discriminator). */
  readonly tags?: readonly DiscriminatorValue[] | undefined;
  /** The member's own schema (a union without a discriminator). */
  readonly schema?: JsonSchema | undefined;
}

/** The generated input schema of one `@LlmTool` method. */
export interface GeneratedToolSchema {
  /** Parameter names in declaration order: how an input object maps to positional arguments. */
  readonly parameters: readonly string[];
  /** The JSON Schema of the method's input object: one property per parameter. */
  readonly inputSchema: ToolInputSchema;
  /** Parameters whose JSON is converted before the call (see `InputType`), by name. */
  readonly types?: Readonly<Record<string, InputType>> | undefined;
}

/** A class as the generated module imports it (a value of {@link GeneratedSchemas.classes}). */
export type GeneratedClass = abstract new (...args: never[]) => unknown;

/**
 * What `entity-tools schemas` writes: tool input schemas keyed `Class.method` (the class that declares the
 * method), structured-output schemas keyed by class name, and the classes themselves under those names.
 * Lookups go through `classes` first (by the constructor, so a minifier renaming classes changes
 * nothing), then by `Class.name`.
 */
export interface GeneratedSchemas {
  /** Each `@LlmTool` method's input schema, keyed `Class.method` (the declaring class). */
  readonly tools: Readonly<Record<string, GeneratedToolSchema>>;
  /** Each structured-output class's JSON Schema, keyed by class name. */
  readonly outputs: Readonly<Record<string, JsonSchema>>;
  /** The classes themselves, by the names the other keys use; lookups by constructor go through it. */
  readonly classes?: Readonly<Record<string, GeneratedClass>> | undefined;
  /**
   * How an output class's JSON becomes an instance (dates, nested classes, arrays of them), by class name;
   * only classes with something to convert have an entry.
   */
  readonly outputTypes?: Readonly<Record<string, InputType>> | undefined;
  /**
   * Fields TypeScript marks `private` or `protected`, by class name: registering the module hides them from
   * the model, as `@Hidden()` does.
   */
  readonly hiddenFields?: Readonly<Record<string, readonly string[]>> | undefined;
  /** The command that wrote the module (its own paths), quoted by every "schema missing or stale" error. */
  readonly command?: string | undefined;
  /**
   * The `@ToolProvider` classes (names in `classes`) each tool method (`Class.method`) can return, alone
   * or in a collection: what handles mode offers from a run's first step.
   */
  readonly returns?: Readonly<Record<string, readonly string[]>> | undefined;
}
