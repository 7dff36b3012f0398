// A failure of the application's own code while it served a call (resolveProvider, in a run or an MCP
// server), as opposed to the tool's: its message may hold anything (a credential), so the model or client
// reads only that it failed, and observers what was thrown (`ToolFailedEvent.cause`), as for an MCP
// server's strategies and every approval rule (`ApprovalRuleError`).
import { EntityToolsError } from "./entity-tools-error.js";

/** The application's own `what` threw while serving a call; `cause` is what it threw. */
export class ServerFailure extends EntityToolsError {
  /** This class's name, written out so that a minified bundle keeps it. */
  static override readonly errorName: string = "ServerFailure";

  constructor(what: string, thrown: unknown) {
    super(serverFailureText(what), { cause: thrown });
  }
}

/**
 * What the model or client reads of a failure of the application's own `what`: that it failed, never what
 * was thrown (`resolveProvider failed (the operator can see why)`).
 */
export function serverFailureText(what: string): string {
  return `${what} failed (the operator can see why)`;
}

/** The most `cause` links {@link serverFailureIn} follows. */
const MAX_LINKS = 8;

/**
 * What the server's own code threw, when `error` is a {@link ServerFailure} or wraps one; else `undefined`.
 * Never throws, whatever was thrown (a revoked Proxy throws on `instanceof`).
 */
export function serverFailureIn(error: unknown): unknown {
  try {
    let link = error;
    for (let i = 0; i < MAX_LINKS && link instanceof Error; i++, link = link.cause)
      if (link instanceof ServerFailure) return link.cause;
  } catch {
    // Not one of ours: a ServerFailure and the errors that wrap it are plain errors.
  }
  return undefined;
}
