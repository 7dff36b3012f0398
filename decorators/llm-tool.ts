import "reflect-metadata";
import { DecoratorMisuseError, memberLabel } from "./decorator-misuse-error.js";
import { LLM_TOOLS_KEY } from "./metadata-keys.js";

/** A JSON Schema for a tool's input: an object keyed by the method's parameter names. */
export interface ParametersSchema {
  type: "object";
  properties: Record<string, object>;
  required?: string[];
  [keyword: string]: unknown;
}

/** Options of {@link LlmTool}. */
export interface LlmToolOptions {
  /** What the tool does, for the model. Required and non-empty. */
  description: string;
  /** Tool name (method part of the name for providers); defaults to the method name. */
  name?: string;
  /** Explicit input schema; wins over the generated one. */
  parameters?: ParametersSchema;
}

/** One `@LlmTool` method as recorded on its class. */
export interface LlmToolMetadata {
  readonly methodName: string;
  readonly name: string;
  readonly description: string;
  readonly parameters?: ParametersSchema;
  /** The class whose body declares the decorated method (where generated schemas are keyed). */
  readonly declaringClass: Function;
}

const EXPLICIT_NAME = /^[a-zA-Z_][a-zA-Z0-9_-]{0,63}$/;

/**
 * Exposes a method to the model as a tool. On a `@ToolProvider` class the tool is bound to each discovered
 * instance; on any other class it is a plain tool of the object passed to `withTools`.
 */
// Every class that declares an @LlmTool method, in the order defined: a run checks their schemas first.
const toolClasses = new Set<Function>();

/** Every class defined so far that declares `@LlmTool` methods (providers and tool groups alike). */
export function getToolClasses(): readonly Function[] {
  return [...toolClasses];
}

/** Names that reach an object's prototype machinery instead of a tool, in a name → tool lookup. */
const RESERVED_NAMES = new Set(["__proto__", "constructor", "prototype"]);

export function LlmTool(descriptionOrOptions: string | LlmToolOptions): MethodDecorator {
  const options =
    typeof descriptionOrOptions === "string" ? { description: descriptionOrOptions } : descriptionOrOptions;
  return (target, propertyKey, descriptor) => {
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
    const kind = (descriptor.value as Function).constructor.name;
    if (kind === "GeneratorFunction" || kind === "AsyncGeneratorFunction") {
      throw new DecoratorMisuseError(
        `@LlmTool on ${label}: a generator method cannot be a tool (calling it runs nothing); return an array or a Promise instead`,
      );
    }
    if (RESERVED_NAMES.has(options.name ?? propertyKey)) {
      throw new DecoratorMisuseError(
        `@LlmTool on ${label}: the tool name "${options.name ?? propertyKey}" is reserved (it names an object's prototype); choose another with @LlmTool({ name })`,
      );
    }
    if (typeof options.description !== "string" || options.description.trim() === "") {
      throw new DecoratorMisuseError(
        `@LlmTool on ${label}: the description is empty; say what the tool does`,
      );
    }
    if (options.name !== undefined && !EXPLICIT_NAME.test(options.name)) {
      throw new DecoratorMisuseError(
        `@LlmTool on ${label}: name "${options.name}" must match ${EXPLICIT_NAME.source} (letters, digits, _ and -, starting with a letter or _)`,
      );
    }
    const own = ownTools(target);
    const name = options.name ?? propertyKey;
    const clash = own.find((t) => t.name === name);
    if (clash) {
      throw new DecoratorMisuseError(
        `@LlmTool on ${label}: ${memberLabel(target, clash.methodName)} already has the tool name "${name}"`,
      );
    }
    const entry: LlmToolMetadata = {
      methodName: propertyKey,
      name,
      description: options.description.trim(),
      parameters: options.parameters,
      declaringClass: target.constructor,
    };
    Reflect.defineMetadata(LLM_TOOLS_KEY, [...own, entry], target);
    toolClasses.add(target.constructor);
  };
}

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
    for (const tool of ownTools(prototype)) byMethod.set(tool.methodName, tool);
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
