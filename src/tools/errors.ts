import { EntityToolsError } from "../errors/entity-tools-error.js";

/**
 * A provider that cannot be bound: its id property is missing, `null`, `undefined`, empty or not a string
 * or number. Thrown by {@link bindProviderTools}; during a run the discovery strategy reports it to the
 * model instead and skips that instance.
 */
export class InvalidToolProviderError extends EntityToolsError {
  static override readonly errorName: string = "InvalidToolProviderError";

  constructor(
    readonly providerClass: Function,
    readonly reason: string,
  ) {
    super(`Cannot expose tools of ${providerClass.name}: ${reason}`);
  }
}

/** A tool method whose schema is missing or no longer matches it; the message says what to run. */
export class ToolSchemaError extends EntityToolsError {
  static override readonly errorName: string = "ToolSchemaError";
}

/** A tool method with parameters but no schema: neither generated nor given in `@LlmTool`. */
export class MissingToolSchemaError extends ToolSchemaError {
  static override readonly errorName: string = "MissingToolSchemaError";

  constructor(
    readonly className: string,
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
  static override readonly errorName: string = "InvalidToolNameError";

  constructor(readonly toolName: string) {
    super(`Tool name "${toolName}" must match ^[a-zA-Z_][a-zA-Z0-9_-]{0,63}$`);
  }
}

/** A generated schema that no longer matches its method: parameters renamed, reordered, added or removed. */
export class StaleToolSchemaError extends ToolSchemaError {
  static override readonly errorName: string = "StaleToolSchemaError";

  constructor(
    readonly method: string,
    readonly declared: readonly string[],
    readonly generated: readonly string[],
    command: string,
  ) {
    super(
      `The generated schema of ${method} is stale: the method takes (${declared.join(", ")}) but the schema ` +
        `describes (${generated.join(", ")}). Run \`${command}\` again.`,
    );
  }
}
