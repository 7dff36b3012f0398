import { EntityToolsError } from "../errors/entity-tools-error.js";

/** The PostgreSQL store cannot start: its driver (`pg`) is not installed or is not the one it expects. */
export class PostgresStoreError extends EntityToolsError {
  /** This class's name, written out so that a minified bundle keeps it. */
  static override readonly errorName: string = "PostgresStoreError";
}
