import { EntityToolsError } from "../../errors/entity-tools-error.js";

/**
 * A snapshot this runner cannot resume: not a run snapshot, another format version, a field that does not
 * have the documented shape, or tools this runner does not have. Thrown before anything runs.
 */
export class SnapshotError extends EntityToolsError {
  /** This class's name, written out so that a minified bundle keeps it. */
  static override readonly errorName: string = "SnapshotError";
}
