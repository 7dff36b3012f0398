import { EntityToolsError } from "../../errors/entity-tools-error.js";

/**
 * A snapshot this runner cannot resume: not a run snapshot, another format version, a field that does not
 * have the documented shape, or tools this runner does not have. Thrown before anything runs. Also a run
 * a snapshot key cannot sign: its history holds a value JSON has no form for (a cycle, a bigint), named by
 * its place; thrown before anything runs when the caller's messages hold it, else when the snapshot is
 * written.
 */
export class SnapshotError extends EntityToolsError {
  /** This class's name, written out so that a minified bundle keeps it. */
  static override readonly errorName: string = "SnapshotError";
}
