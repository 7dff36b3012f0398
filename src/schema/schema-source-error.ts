import { EntityToolsError } from "../errors/entity-tools-error.js";

/** A problem in the sources that makes a schema impossible; the message names file, line and what to do. */
export class SchemaSourceError extends EntityToolsError {
  /** This class's name, written out so that a minified bundle keeps it. */
  static override readonly errorName: string = "SchemaSourceError";
}
