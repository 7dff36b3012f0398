import { hideField } from "../../decorators/index.js";
import type {
  GeneratedClass,
  GeneratedSchemas,
  GeneratedToolSchema,
  InputType,
} from "./generated-schemas.js";
import type { JsonSchema } from "./json-schema.js";

interface Store {
  tools: Map<string, GeneratedToolSchema>;
  outputs: Map<string, JsonSchema>;
  /** The name each registered class has in the generated modules (its source name). */
  names: WeakMap<Function, string>;
  /** Classes by that name, for typed input. */
  classes: Map<string, GeneratedClass>;
  /** How output classes' JSON becomes instances, by source name. */
  outputTypes: Map<string, InputType>;
  /** The source name of each registered output schema (the schema object a run is given). */
  outputNames?: WeakMap<object, string>;
  /** The command of the last module registered, for error hints. */
  command?: string;
  /** `Class.method` → the provider classes it can return, by name. */
  returns?: Map<string, readonly string[]>;
  /** How many modules were registered: what was read from the store before a change is read again. */
  version?: number;
}

// One store per process, shared by every copy of the package (a build and its sources in one test run).
const STORE_KEY = Symbol.for("entity-tools:schema-store");
const holder = globalThis as { [STORE_KEY]?: Store };
const store: Store = (holder[STORE_KEY] ??= {
  tools: new Map(),
  outputs: new Map(),
  names: new WeakMap(),
  classes: new Map(),
  outputTypes: new Map(),
});
// (a store made by an older copy of the package lacks the fields added since)
store.outputTypes ??= new Map();

/** The command users run to (re)generate schemas, quoted when no registered module says its own. */
export const SCHEMA_COMMAND =
  "npx entity-tools schemas --project tsconfig.json --out src/generated/tool-schemas.ts";

/**
 * Makes generated schemas available to tool binding and `createObject`. Call it once at start-up with the
 * module `entity-tools schemas` wrote; later registrations of the same key win. A registration is read by
 * what binds from then on (`withTools`, discovery, and `createMcpServer`'s servers at their next request,
 * made before it or after); tools bound before it keep the schemas they were bound with.
 */
export function registerToolSchemas(schemas: GeneratedSchemas): void {
  for (const [key, schema] of Object.entries(schemas.tools)) store.tools.set(key, schema);
  store.outputNames ??= new WeakMap();
  for (const [key, schema] of Object.entries(schemas.outputs)) {
    store.outputs.set(key, schema);
    store.outputNames.set(schema, key);
  }
  store.returns ??= new Map();
  for (const [key, names] of Object.entries(schemas.returns ?? {})) store.returns.set(key, names);
  for (const [name, cls] of Object.entries(schemas.classes ?? {})) {
    store.names.set(cls, name);
    store.classes.set(name, cls);
  }
  registerClassFacts(schemas);
  store.version = (store.version ?? 0) + 1;
}

/** The module's facts about its classes: output conversions, and fields hidden from the model. */
function registerClassFacts(schemas: GeneratedSchemas): void {
  for (const [name, type] of Object.entries(schemas.outputTypes ?? {})) store.outputTypes.set(name, type);
  if (schemas.command) store.command = schemas.command;
  for (const [name, fields] of Object.entries(schemas.hiddenFields ?? {})) {
    const cls = schemas.classes?.[name];
    if (cls) for (const field of fields) hideField(cls, field);
  }
}

/**
 * A number that changes at every {@link registerToolSchemas}: what was made from the store (a class's tool
 * methods, an MCP server's tool list) is made again when it differs from the one it was made at, and is
 * kept, at the cost of one comparison, while it does not.
 */
export function schemaStoreVersion(): number {
  return store.version ?? 0;
}

/**
 * The command that regenerates this project's schemas, quoted in every "schema missing or stale" error:
 * the one the registered module was written by (its own `--project`, `--out` and `--type`s), else the
 * default paths.
 */
export function schemaCommand(): string {
  return store.command ?? SCHEMA_COMMAND;
}

/** How a structured-output class's JSON becomes an instance, when the generated module says. */
export function findOutputType(cls: Function): InputType | undefined {
  return store.outputTypes.get(sourceNameOf(cls));
}

/**
 * The same, by the output schema a run was given (the registered schema object of a class): what the
 * loop, which knows the schema and not the class, checks an answer with.
 */
export function findOutputTypeOfSchema(schema: JsonSchema): InputType | undefined {
  const name = store.outputNames?.get(schema);
  return name === undefined ? undefined : store.outputTypes.get(name);
}

/**
 * The name a class has in the generated modules, which is its name everywhere a class is named as text
 * (tool schemas, provider identities, handles, snapshots, `resolveProvider`): its registered name
 * (minifiers rename classes, the generated module's import does not change; two exported classes of one
 * project with one name are registered qualified, `crm.Customer`), else `Class.name`.
 */
export function sourceNameOf(cls: Function): string {
  return store.names.get(cls) ?? cls.name;
}

/** The class's name as its source declares it: {@link sourceNameOf} without a qualifier (`Customer`). */
export function declaredNameOf(cls: Function): string {
  const name = sourceNameOf(cls);
  return name.slice(name.lastIndexOf(".") + 1);
}

/** Whether `cls` runs under the name it has in its sources (false in a minified bundle). */
export function keepsSourceName(cls: Function): boolean {
  return declaredNameOf(cls) === cls.name;
}

/** The generated schema of a method of `cls` (the class that declares it), if registered. */
export function findToolSchema(cls: Function, methodName: string): GeneratedToolSchema | undefined {
  return store.tools.get(`${sourceNameOf(cls)}.${methodName}`);
}

/** The generated output schema of a class, if registered. */
export function findOutputSchema(cls: Function): JsonSchema | undefined {
  return store.outputs.get(sourceNameOf(cls));
}

/** A class the generated modules named, for building typed input. */
export function findGeneratedClass(name: string): GeneratedClass | undefined {
  return store.classes.get(name);
}

/**
 * The provider classes a tool method of `cls` (the class that declares it) can return, as the generated
 * module recorded them; `undefined` when no registered module says.
 */
export function findReturnedClasses(
  cls: Function,
  methodName: string,
): readonly GeneratedClass[] | undefined {
  const names = store.returns?.get(`${sourceNameOf(cls)}.${methodName}`);
  return names?.flatMap((name) => store.classes.get(name) ?? []);
}

/**
 * The keys under which the registered modules name other classes than `cls` declared with its name
 * (`Summary`, `crm/customer.Summary`), sorted: none when no module names another class so.
 */
export function otherKeysNamedAs(cls: Function): string[] {
  return [...store.classes]
    .filter(([key, other]) => other !== cls && (key === cls.name || key.endsWith(`.${cls.name}`)))
    .map(([key]) => key)
    .sort();
}
