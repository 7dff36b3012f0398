import "./reflect-metadata.cjs";
import { DecoratorMisuseError, memberLabel } from "./decorator-misuse-error.js";
import { TOOL_PARAMS_KEY } from "./metadata-keys.js";
import { isStandardCall } from "./standard-decorators.js";

/**
 * Describes one parameter of an `@LlmTool` method for the model. Without it the method's JSDoc
 * `@param` text is used (the schema generator reads both).
 */
export function ToolParam(description: string): ParameterDecorator {
  return (...args: unknown[]) => {
    if (isStandardCall(args)) {
      throw new DecoratorMisuseError(
        `@ToolParam on ${String(args[1].name)}: TC39 standard decorators have no parameter decorators. ` +
          "Describe the parameter with a JSDoc @param tag on the method instead (the schema CLI reads it), " +
          'or turn on "experimentalDecorators" to use @ToolParam',
      );
    }
    const [target, propertyKey, index] = args as [object, string | symbol | undefined, number];
    if (propertyKey === undefined) {
      throw new DecoratorMisuseError(
        `@ToolParam on a constructor parameter of ${memberLabel(target, "constructor")}: only tool method parameters take it`,
      );
    }
    if (description.trim() === "") {
      throw new DecoratorMisuseError(
        `@ToolParam on ${memberLabel(target, propertyKey)} #${index}: empty description`,
      );
    }
    const byIndex = getToolParamDescriptions(target, propertyKey);
    Reflect.defineMetadata(TOOL_PARAMS_KEY, { ...byIndex, [index]: description }, target, propertyKey);
  };
}

/** Parameter descriptions of a method, keyed by position. */
export function getToolParamDescriptions(
  prototype: object,
  method: string | symbol,
): Readonly<Record<number, string>> {
  return (
    (Reflect.getOwnMetadata(TOOL_PARAMS_KEY, prototype, method) as Record<number, string> | undefined) ?? {}
  );
}
