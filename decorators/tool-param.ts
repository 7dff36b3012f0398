import "reflect-metadata";
import { DecoratorMisuseError, memberLabel } from "./decorator-misuse-error.js";
import { TOOL_PARAMS_KEY } from "./metadata-keys.js";

/**
 * Describes one parameter of an `@LlmTool` method for the model. Without it the method's JSDoc
 * `@param` text is used (the schema generator reads both).
 */
export function ToolParam(description: string): ParameterDecorator {
  return (target, propertyKey, index) => {
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
