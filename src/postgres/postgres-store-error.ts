import { EntityToolsError } from "../errors/entity-tools-error.js";

/** The PostgreSQL store cannot start: its driver (`pg`) is not installed or is not the one it expects. */
export class PostgresStoreError extends EntityToolsError {
  static override readonly errorName: string = "PostgresStoreError";
}
