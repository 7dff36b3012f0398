import { EntityToolsError } from "../../errors/entity-tools-error.js";

/**
 * A cassette that cannot be replayed: unreadable, not JSON, another format or version, or a field that
 * does not have the documented shape (edited by hand). Names the file and the path inside it.
 */
export class CassetteError extends EntityToolsError {
  /** This class's name, written out so that a minified bundle keeps it. */
  static override readonly errorName: string = "CassetteError";

  constructor(
    /** The cassette's file, or `(in memory)`. */
    readonly file: string,
    /** What is wrong, one line per problem, each naming the path inside the cassette (`steps.1.response`). */
    readonly problems: readonly string[],
  ) {
    super(
      `The cassette ${file} cannot be replayed: ${problems.join("; ")}. Record it again with recordModel ` +
        '(see docs/testing.md, "Record and replay")',
    );
  }
}

/**
 * How a replayed run differs from its recording: it asked for a step past the end, did not offer a recorded
 * call's tool, or a call's result was an error where the recording's was not (or the other way round).
 */
export type ReplayProblem = "past-end" | "tool-not-offered" | "result-differs";

/**
 * A replayed run asked what its recording does not have: a step past the end of the recording, a step
 * whose recorded answer calls a tool this run does not offer at that step, or a step whose request carries
 * a call's result that is an error where the recorded one was not (or the other way round). Names the step
 * and the difference.
 */
export class ReplayMismatchError extends EntityToolsError {
  /** This class's name, written out so that a minified bundle keeps it. */
  static override readonly errorName: string = "ReplayMismatchError";

  constructor(
    /** The cassette's file, or `(in memory)`. */
    readonly file: string,
    /** The model call (from 1) that could not be replayed. */
    readonly step: number,
    /** Past the end of the recording, or a recorded call's tool not offered. */
    readonly problem: ReplayProblem,
    /** The recorded calls' tools this run does not offer at `step` (empty for `past-end`). */
    readonly missingTools: readonly string[],
    /** The tools this run offers at `step`. */
    readonly offered: readonly string[],
    message: string,
  ) {
    super(message);
  }
}
