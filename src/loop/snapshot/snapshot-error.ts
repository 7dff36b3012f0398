import { EntityToolsError } from "../../errors/entity-tools-error.js";

/**
 * A snapshot this runner cannot resume: not a run snapshot, another format version, a field that does not
 * have the documented shape, or tools this runner does not have. Thrown before anything runs. Also a run
 * whose history is not plain JSON (a snapshot holds it, a provider is sent it): it holds a cycle, a bigint
 * or a value nested too deep, named by its place; thrown before anything runs when the caller's messages
 * hold it, else when the snapshot is written (with or without `withSnapshotKey`).
 */
export class SnapshotError extends EntityToolsError {
  /** This class's name, written out so that a minified bundle keeps it. */
  static override readonly errorName: string = "SnapshotError";
}
