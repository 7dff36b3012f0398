import { EntityToolsError } from "../errors/entity-tools-error.js";

/**
 * The script cannot be played: it ran out, or a tool it names was not offered. Thrown where a turn is
 * scripted when a call's input cannot be sent (a function, a bigint, a cycle).
 */
export class ScriptError extends EntityToolsError {
  /** This class's name, written out so that a minified bundle keeps it. */
  static override readonly errorName: string = "ScriptError";
}
