import "./reflect-metadata.cjs";
import { DecoratorMisuseError } from "./decorator-misuse-error.js";
import { TOOL_PROVIDER_KEY } from "./metadata-keys.js";
import "./standard-decorators.js";

/** Options of {@link ToolProvider}. */
export interface ToolProviderOptions {
  /** First part of every tool name; defaults to the decorated class's name in lower case. */
  prefix?: string | undefined;
  /** Property holding the instance id (second part of every tool name); defaults to `"id"`. */
  instanceIdProperty?: string | undefined;
}

/** Options of a provider class with the defaults applied. */
export interface ResolvedToolProviderOptions {
  /** First part of every tool name: the option, else the class's name in lower case. */
  readonly prefix: string;
  /** The property that holds the instance id: the option, else `"id"`. */
  readonly instanceIdProperty: string;
  /** The class that carries the decorator (a subclass inherits it from here). */
  readonly decoratedClass: Function;
  /**
   * No prefix was given: `prefix` is the class name as it runs. Binding uses the class's source name
   * instead when the generated schemas know it, so a minifier renaming classes changes no tool name.
   */
  readonly prefixIsDefault: boolean;
}

/**
 * Marks a domain class whose `@LlmTool` methods become tools, named `<prefix>_<id>_<method>`, when an
 * instance of it is returned by a tool during a run with discovery on.
 *
 * A subclass of a provider is a provider too: it inherits the options (and so the prefix) of the nearest
 * decorated ancestor unless it is decorated itself.
 */
export function ToolProvider(options: ToolProviderOptions = {}): ToolProviderDecorator {
  // Legacy and TC39 standard class decorators both receive the class first.
  return ((target: Function) => {
    if (options.prefix !== undefined && options.prefix.trim() === "") {
      throw new DecoratorMisuseError(`@ToolProvider on ${target.name}: prefix must not be empty`);
    }
    if (options.instanceIdProperty !== undefined && options.instanceIdProperty.trim() === "") {
      throw new DecoratorMisuseError(`@ToolProvider on ${target.name}: instanceIdProperty must not be empty`);
    }
    const earlier = Reflect.getOwnMetadata(TOOL_PROVIDER_KEY, target) as
      ResolvedToolProviderOptions | undefined;
    if (earlier) {
      // The outer decorator's options replaced the inner one's unseen (and the schema CLI may read the other).
      throw new DecoratorMisuseError(
        `@ToolProvider on ${target.name}: the class is already decorated with @ToolProvider (prefix "${earlier.prefix}"); keep one decorator`,
      );
    }
    const resolved: ResolvedToolProviderOptions = {
      prefix: options.prefix ?? target.name.toLowerCase(),
      instanceIdProperty: options.instanceIdProperty ?? "id",
      decoratedClass: target,
      prefixIsDefault: options.prefix === undefined,
    };
    Reflect.defineMetadata(TOOL_PROVIDER_KEY, resolved, target);
  }) as ToolProviderDecorator;
}

/** A class decorator usable in both modes: legacy (`experimentalDecorators`) or TC39 standard. */
export type ToolProviderDecorator = ClassDecorator &
  (<T extends abstract new (...args: never[]) => unknown>(
    value: T,
    context: ClassDecoratorContext<T>,
  ) => void);

/** The provider options of a class (its own or the nearest decorated ancestor's), or `undefined`. */
export function getToolProviderOptions(target: Function): ResolvedToolProviderOptions | undefined {
  return Reflect.getMetadata(TOOL_PROVIDER_KEY, target) as ResolvedToolProviderOptions | undefined;
}
