import "./reflect-metadata.cjs";
import { DecoratorMisuseError, memberLabel } from "./decorator-misuse-error.js";
import { LLM_TOOLS_KEY } from "./metadata-keys.js";
import { isStandardCall, ownStandardMetadata, type StandardContext } from "./standard-decorators.js";

/** A JSON Schema for a tool's input: an object keyed by the method's parameter names. */
export interface ParametersSchema {
  /** Always `"object"`: the input is one object. */
  type: "object";
  /** Each parameter's JSON Schema, by parameter name. */
  properties: Record<string, object>;
  /** The parameters the input must have; absent: none. */
  required?: string[] | undefined;
  /** Any other JSON Schema keyword (`additionalProperties`, `$defs`, …). */
  [keyword: string]: unknown;
}

/** Options of {@link LlmTool}. */
export interface LlmToolOptions {
  /** What the tool does, for the model. Required and non-empty. */
  description: string;
  /** Tool name (method part of the name for providers); defaults to the method name. */
  name?: string | undefined;
  /** Explicit input schema; wins over the generated one. */
  parameters?: ParametersSchema | undefined;
  /** The run stops before each call of this tool until a person approves it (see `runner.resume`). */
  needsApproval?: boolean | undefined;
}

/** One `@LlmTool` method as recorded on its class. */
export interface LlmToolMetadata {
  /** The decorated method's name. */
  readonly methodName: string;
  /** The tool's name (the method part, for a provider's tools): `name` of the options, else the method's. */
  readonly name: string;
  /** What the tool does, for the model. */
  readonly description: string;
  /** The explicit input schema the options gave; absent: the generated one is used. */
  readonly parameters?: ParametersSchema;
  /** True when each call waits for a person's approval. */
  readonly needsApproval?: boolean;
  /** The class whose body declares the decorated method (where generated schemas are keyed). */
  readonly declaringClass: Function;
}

const EXPLICIT_NAME = /^[a-zA-Z_][a-zA-Z0-9_-]{0,63}$/;

// Every class that declares an @LlmTool method, in the order defined: a run checks their schemas first.
const toolClasses = new Set<Function>();

/** Every class defined so far that declares `@LlmTool` methods (providers and tool groups alike). */
export function getToolClasses(): readonly Function[] {
  return [...toolClasses];
}

/** Names that reach an object's prototype machinery instead of a tool, in a name → tool lookup. */
const RESERVED_NAMES = new Set(["__proto__", "constructor", "prototype"]);

/**
 * Exposes a method to the model as a tool. On a `@ToolProvider` class the tool is bound to each discovered
 * instance; on any other class it is a plain tool of the object passed to `withTools`. Works as a legacy
 * (`experimentalDecorators`) and as a TC39 standard decorator.
 */
export function LlmTool(descriptionOrOptions: string | LlmToolOptions): LlmToolDecorator {
  const options =
    typeof descriptionOrOptions === "string" ? { description: descriptionOrOptions } : descriptionOrOptions;
  return ((...args: unknown[]) => {
    if (isStandardCall(args)) return decorateStandard(options, args[0], args[1]);
    const [target, propertyKey, descriptor] = args as [
      object,
      string | symbol,
      PropertyDescriptor | undefined,
    ];
    const label = memberLabel(target, propertyKey);
    if (typeof target === "function") {
      throw new DecoratorMisuseError(`@LlmTool on static ${label}: only instance methods can be tools`);
    }
    if (typeof propertyKey === "symbol") {
      throw new DecoratorMisuseError(`@LlmTool on ${label}: symbol-named methods cannot be tools`);
    }
    if (descriptor === undefined || typeof descriptor.value !== "function") {
      throw new DecoratorMisuseError(
        `@LlmTool on ${label}: it is not a method (fields, getters and setters cannot be tools)`,
      );
    }
    const own = ownTools(target);
    const entry = toolEntry(options, label, propertyKey, descriptor.value as Function, own);
    Reflect.defineMetadata(LLM_TOOLS_KEY, [...own, { ...entry, declaringClass: target.constructor }], target);
    toolClasses.add(target.constructor);
  }) as LlmToolDecorator;
}

/** A decorator usable in both modes: legacy method decorator, or TC39 standard method decorator. */
export type LlmToolDecorator = MethodDecorator &
  (<T extends Function>(value: T, context: ClassMethodDecoratorContext) => void);

/** The checks both modes share, and the entry they record (its class is known later in standard mode). */
function toolEntry(
  options: LlmToolOptions,
  label: string,
  methodName: string,
  method: Function,
  own: readonly { name: string; methodName: string }[],
): Omit<LlmToolMetadata, "declaringClass"> {
  const kind = method.constructor.name;
  if (kind === "GeneratorFunction" || kind === "AsyncGeneratorFunction") {
    throw new DecoratorMisuseError(
      `@LlmTool on ${label}: a generator method cannot be a tool (calling it runs nothing); return an array or a Promise instead`,
    );
  }
  if (own.some((t) => t.methodName === methodName)) {
    // Both entries would claim the method, and one of them would be dropped unseen when the tools are read.
    throw new DecoratorMisuseError(
      `@LlmTool on ${label}: the method is already decorated with @LlmTool; a method is one tool, keep one decorator`,
    );
  }
  const name = options.name ?? methodName;
  if (RESERVED_NAMES.has(name)) {
    throw new DecoratorMisuseError(
      `@LlmTool on ${label}: the tool name "${name}" is reserved (it names an object's prototype); choose another with @LlmTool({ name })`,
    );
  }
  if (typeof options.description !== "string" || options.description.trim() === "") {
    throw new DecoratorMisuseError(`@LlmTool on ${label}: the description is empty; say what the tool does`);
  }
  if (options.needsApproval !== undefined && typeof options.needsApproval !== "boolean") {
    // `options.needsApproval === true` read anything else as "no approval": the AI SDK's form, a function
    // of the input, ran every call unasked.
    throw new DecoratorMisuseError(
      `@LlmTool on ${label}: needsApproval must be true or false, got ${typeof options.needsApproval}; to decide by the call's input, use runner.withApproval(call => …)`,
    );
  }
  if (options.name !== undefined && !EXPLICIT_NAME.test(options.name)) {
    throw new DecoratorMisuseError(
      `@LlmTool on ${label}: name "${options.name}" must match ${EXPLICIT_NAME.source} (letters, digits, _ and -, starting with a letter or _)`,
    );
  }
  const clash = own.find((t) => t.name === name);
  if (clash) {
    throw new DecoratorMisuseError(
      `@LlmTool on ${label}: ${label.slice(0, label.lastIndexOf("."))}.${clash.methodName} already has the tool name "${name}"`,
    );
  }
  return {
    methodName,
    name,
    description: options.description.trim(),
    // Absent when not given, as the type says (not a key holding `undefined`: `"parameters" in`, `Object.keys`).
    ...(options.parameters === undefined ? {} : { parameters: options.parameters }),
    needsApproval: options.needsApproval === true,
  };
}

/** The TC39 form: the entry goes to `context.metadata`; the class is recorded when an instance is made. */
function decorateStandard(options: LlmToolOptions, value: unknown, context: StandardContext): void {
  const label = `${String(context.name)}`;
  if (context.kind !== "method" || typeof value !== "function") {
    throw new DecoratorMisuseError(
      `@LlmTool on ${label}: it is not a method (fields, getters and setters cannot be tools)`,
    );
  }
  if (context.static)
    throw new DecoratorMisuseError(`@LlmTool on static ${label}: only instance methods can be tools`);
  if (context.private || typeof context.name === "symbol") {
    throw new DecoratorMisuseError(`@LlmTool on ${label}: private and symbol-named methods cannot be tools`);
  }
  const metadata = context.metadata;
  if (!metadata) {
    throw new DecoratorMisuseError(
      `@LlmTool on ${label}: this runtime passed no decorator metadata; import entity-tools before defining the class`,
    );
  }
  const own = Object.hasOwn(metadata, LLM_TOOLS_KEY) ? (metadata[LLM_TOOLS_KEY] as StandardToolEntry[]) : [];
  const entry = toolEntry(options, label, context.name, value, own);
  metadata[LLM_TOOLS_KEY] = [...own, entry];
  context.addInitializer?.(function (this: unknown) {
    toolClasses.add((this as object).constructor);
  });
}

type StandardToolEntry = Omit<LlmToolMetadata, "declaringClass">;

function ownTools(prototype: object): readonly LlmToolMetadata[] {
  return (Reflect.getOwnMetadata(LLM_TOOLS_KEY, prototype) as LlmToolMetadata[] | undefined) ?? [];
}

/**
 * Every `@LlmTool` method of a class, inherited ones included. A subclass keeps its parent's tools; a
 * method it decorates again replaces the parent's entry (matched by method name), and an undecorated
 * override keeps the parent's description while the subclass's code runs.
 *
 * @throws DecoratorMisuseError when two different methods along the chain claim one tool name.
 */
export function getLlmTools(target: Function): readonly LlmToolMetadata[] {
  const chain: object[] = [];
  for (
    let p: object | null = target.prototype as object;
    p && p !== Object.prototype;
    p = Object.getPrototypeOf(p)
  ) {
    chain.unshift(p);
  }
  const byMethod = new Map<string, LlmToolMetadata>();
  for (const prototype of chain) {
    const cls = (prototype as { constructor: Function }).constructor;
    const standard = ownStandardMetadata<StandardToolEntry[]>(cls, LLM_TOOLS_KEY) ?? [];
    for (const tool of [...ownTools(prototype), ...standard.map((t) => ({ ...t, declaringClass: cls }))])
      byMethod.set(tool.methodName, tool);
  }
  const byName = new Map<string, LlmToolMetadata>();
  for (const tool of byMethod.values()) {
    const clash = byName.get(tool.name);
    if (clash) {
      throw new DecoratorMisuseError(
        `${target.name}: methods ${clash.methodName} and ${tool.methodName} both have the tool name "${tool.name}"`,
      );
    }
    byName.set(tool.name, tool);
  }
  return [...byMethod.values()];
}
