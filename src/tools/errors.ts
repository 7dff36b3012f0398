import { EntityToolsError } from "../errors/entity-tools-error.js";
import { isValidToolName } from "./tool-name-rules.js";

/**
 * A provider that cannot be bound: its id property is missing, `null`, `undefined`, empty or not a string
 * or number. Thrown by {@link bindProviderTools}; during a run the discovery strategy reports it to the
 * model instead and skips that instance.
 */
export class InvalidToolProviderError extends EntityToolsError {
  /** This class's name, written out so that a minified bundle keeps it. */
  static override readonly errorName: string = "InvalidToolProviderError";

  constructor(
    /** The provider's class. */
    readonly providerClass: Function,
    /** Why it cannot be bound, in words. */
    readonly reason: string,
  ) {
    super(`Cannot expose tools of ${providerClass.name}: ${reason}`);
  }
}

/** A tool method whose schema is missing or no longer matches it; the message says what to run. */
export class ToolSchemaError extends EntityToolsError {
  /** This class's name, written out so that a minified bundle keeps it. */
  static override readonly errorName: string = "ToolSchemaError";
}

/** A tool method with parameters but no schema: neither generated nor given in `@LlmTool`. */
export class MissingToolSchemaError extends ToolSchemaError {
  /** This class's name, written out so that a minified bundle keeps it. */
  static override readonly errorName: string = "MissingToolSchemaError";

  constructor(
    /** The class of the tool method. */
    readonly className: string,
    /** The method without a schema. */
    readonly methodName: string,
    command: string,
  ) {
    super(
      `No input schema for ${className}.${methodName}: generate schemas with \`${command}\` and pass the module to ` +
        `registerToolSchemas(), or give @LlmTool({ parameters }) explicitly`,
    );
  }
}

/** A hand-written tool whose name the providers would reject. */
export class InvalidToolNameError extends EntityToolsError {
  /** This class's name, written out so that a minified bundle keeps it. */
  static override readonly errorName: string = "InvalidToolNameError";

  constructor(
    /** The name refused. */
    readonly toolName: string,
  ) {
    super(`Tool name "${toolName}" must match ^[a-zA-Z_][a-zA-Z0-9_-]{0,63}$`);
  }
}

/**
 * Refuses a tool name the providers would reject: the one check of `defineTool`, `withTools` (a tool made by
 * hand) and a strategy's additions.
 *
 * @throws InvalidToolNameError naming it
 */
export function refuseInvalidToolName(name: string): void {
  if (!isValidToolName(name)) throw new InvalidToolNameError(name);
}

/** A generated schema that no longer matches its method: parameters renamed, reordered, added or removed. */
export class StaleToolSchemaError extends ToolSchemaError {
  /** This class's name, written out so that a minified bundle keeps it. */
  static override readonly errorName: string = "StaleToolSchemaError";

  constructor(
    /** The method, as `Class.method`. */
    readonly method: string,
    /** The parameters the method takes now, in order. */
    readonly declared: readonly string[],
    /** The parameters the generated schema describes, in order. */
    readonly generated: readonly string[],
    command: string,
  ) {
    super(
      `The generated schema of ${method} is stale: the method takes (${declared.join(", ")}) but the schema ` +
        `describes (${generated.join(", ")}). Run \`${command}\` again.`,
    );
  }
}
