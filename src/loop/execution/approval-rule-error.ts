// The application's approval rule is its own code: when it breaks, the caller must learn that it was the
// rule, for which call, and what it threw, while the model (and an MCP client) learns only that the call
// did not run, as for every failure of the application's own code (see `ServerFailure`).
import { describeThrown } from "../../tools/describe-thrown.js";
import { ToolLoopError } from "../errors/errors.js";
import { failureMessage } from "../errors/failure-message.js";

/**
 * Where an approval rule was given: `"withApproval"` (`runner.withApproval(rule)`) or `"approval"`
 * (`createMcpServer({ approval })`).
 */
export type ApprovalRuleName = "withApproval" | "approval";

/** How an approval rule broke: it threw or rejected (`thrown`), or answered something else than a boolean. */
export type ApprovalRuleBreak = { readonly thrown: unknown } | { readonly returned: unknown };

/** The most characters of a returned value the message quotes. */
const MAX_QUOTED_CHARS = 200;

/**
 * An approval rule (an `ApprovalPredicate`: `runner.withApproval`, `createMcpServer`'s `approval`) threw,
 * rejected, or answered something other than `true` or `false` (`"yes"`, `undefined`, a promise of a
 * string) for a call. The call did not run. `cause` is what the rule threw (absent when it returned a
 * wrong value). A run ends with it, its snapshot resumable once the rule is fixed; the model reads only
 * that the call did not run.
 */
export class ApprovalRuleError extends ToolLoopError {
  /** This class's name, written out so that a minified bundle keeps it. */
  static override readonly errorName: string = "ApprovalRuleError";

  constructor(
    /** The rule that broke, named as it was given: `withApproval` or the MCP server's `approval`. */
    readonly rule: ApprovalRuleName,
    /** The name of the tool the call was for. */
    readonly toolName: string,
    /** The call's id (its `approvalId`). */
    readonly toolCallId: string,
    broke: ApprovalRuleBreak,
  ) {
    const where = rule === "withApproval" ? "runner.withApproval" : "createMcpServer's approval option";
    const call = `for the call "${toolCallId}" of "${toolName}", which did not run`;
    super(
      ("thrown" in broke
        ? `The approval rule (${where}) failed ${call}: ${failureMessage(broke.thrown).replace(/\.+$/, "")}`
        : `The approval rule (${where}) returned ${quoted(broke.returned)} ${call}: it must return true or false (or a promise of one)`) +
        (rule === "withApproval" ? ". Fix the rule, then resume from this error's snapshot" : ""),
      "thrown" in broke ? { cause: broke.thrown } : {},
    );
  }
}

/**
 * What observers are told broke (`ToolFailed.cause`): what the rule threw, or, when it returned a wrong
 * value, `error` itself (which says what it returned).
 */
export function ruleFailureCause(error: ApprovalRuleError): unknown {
  return Object.hasOwn(error, "cause") ? error.cause : error;
}

/** A value a rule returned, as the message quotes it: a string in quotes, anything else as it reads. */
function quoted(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(value.slice(0, MAX_QUOTED_CHARS));
  if (value === undefined) return "undefined";
  if (typeof value === "function") return "a function"; // its source would say nothing useful
  return describeThrown(value, MAX_QUOTED_CHARS);
}
