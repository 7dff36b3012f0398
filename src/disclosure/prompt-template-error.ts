import { EntityToolsError } from "../errors/entity-tools-error.js";

/**
 * A prompt template that cannot be rendered: two sections with one key, a SUMMARY section without a
 * summary, a placeholder without a parameter. The message names the template and section.
 */
export class PromptTemplateError extends EntityToolsError {
  /** This class's name, written out so that a minified bundle keeps it. */
  static override readonly errorName: string = "PromptTemplateError";
}
