import { EntityToolsError } from "../errors/entity-tools-error.js";

/**
 * A provider that cannot be bound: its id property is missing, `null`, `undefined`, empty or not a string
 * or number. Thrown by {@link bindProviderTools}; during a run the discovery strategy reports it to the
 * model instead and skips that instance.
 */
export class InvalidToolProviderError extends EntityToolsError {
  constructor(
    readonly providerClass: Function,
    readonly reason: string,
  ) {
    super(`Cannot expose tools of ${providerClass.name}: ${reason}`);
  }
}

/** A tool method with parameters but no schema: neither generated nor given in `@LlmTool`. */
export class MissingToolSchemaError extends EntityToolsError {
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
  constructor(readonly toolName: string) {
    super(`Tool name "${toolName}" must match ^[a-zA-Z_][a-zA-Z0-9_-]{0,63}$`);
  }
}
