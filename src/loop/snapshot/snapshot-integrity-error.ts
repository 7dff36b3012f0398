import { EntityToolsError } from "../../errors/entity-tools-error.js";

/** What made a snapshot untrustworthy. */
export type SnapshotIntegrityProblem = "not-an-object" | "unsigned" | "altered";

/**
 * A runner with a snapshot key was given a snapshot it cannot trust: not a snapshot object, unsigned, or
 * altered, truncated or signed with a key the runner does not hold. Nothing of the run ran.
 */
export class SnapshotIntegrityError extends EntityToolsError {
  /** This class's name, written out so that a minified bundle keeps it. */
  static override readonly errorName: string = "SnapshotIntegrityError";

  constructor(
    /** Not a snapshot object, unsigned, or altered (or signed with a key the runner does not hold). */
    readonly problem: SnapshotIntegrityProblem,
  ) {
    super(`${WHY[problem]}; nothing ran. ${WHAT_TO_DO}`);
  }
}

const WHY: Record<SnapshotIntegrityProblem, string> = {
  "not-an-object": "The snapshot is not a JSON object",
  unsigned: "The snapshot has no signature, and this runner has a snapshot key (withSnapshotKey)",
  altered:
    "The snapshot's signature does not match its content: it was altered or truncated after it was signed, or signed with a key this runner does not hold",
};

const WHAT_TO_DO =
  "Resume only snapshots this application signed, and give withSnapshotKey every key still in use (new key first) while keys rotate.";
