// A step's other records on the page, one line each: approvals asked and decided, restarts with their
// cause, sections expanded, notes and the size limit's cut (its tool-set records are shown as changes, but
// for tools a resumed run could not restore).
import type { RestartCause } from "../../events/restart-events.js";
import type { RestartRecord, RunLogRecord } from "../../run-log/run-log-format.js";
import { cutWords, h, pretty, type Child } from "./dom.js";

/** What asked for a restart, in words (a file written before `cause` was recorded: the reason alone). */
const RESTART_CAUSES: Record<RestartCause, (sections: readonly string[]) => string> = {
  expansion: (sections) => ` to expand ${sections.join(", ")}`,
  strategy: () => " asked by a strategy",
  "new-thread": () => " in a new thread",
  fallback: () => " in a new thread (fallback from dynamic tools)",
};

function restartLine(record: RestartRecord): string {
  // A cause this page does not know (a later writer's) is shown as a file without one.
  const known = record.cause !== undefined && Object.hasOwn(RESTART_CAUSES, record.cause);
  const cause = known ? RESTART_CAUSES[record.cause!](record.sections ?? []) : "";
  // "restart" stands for a strategy's reason not recorded (no recordContent).
  return `↻ restart${cause}${record.reason === "restart" ? "" : `: ${record.reason}`}`;
}

/** Approvals, restarts, expansions and notes, one line each (tool-set records are shown as changes). */
export function otherLine(record: RunLogRecord): Child {
  switch (record.type) {
    case "approval-asked":
      return h(
        "li",
        { className: "approval asked" },
        `… waits for approval: ${record.tool}`,
        record.input !== undefined && ` ${pretty(record.input)}`,
        cutWords(record, "input") && ` (${cutWords(record, "input")})`,
      );
    case "approval-decided":
      return h(
        "li",
        { className: `approval ${record.approved ? "approved" : "denied"}` },
        record.approved
          ? `✔ approved: ${record.tool}`
          : `✘ denied: ${record.tool}${record.reason ? ` — ${record.reason}` : ""}`,
      );
    case "restart":
      return h("li", { className: "restart" }, restartLine(record));
    case "expanded":
      return h(
        "li",
        { className: "expanded" },
        `section ${record.section} expanded (${record.mode}): ${record.tools.join(", ") || "no tools"}`,
      );
    case "note":
      return h(
        "li",
        { className: `note ${record.kind}` },
        `⚠ ${record.kind}${record.message ? `: ${record.message}` : ""}`,
      );
    case "cut":
      return h("li", { className: "note cut" }, `✂ ${record.note}`);
    case "removed":
      // A resumed run's first step lists its whole tool set: what it could not restore is no diff to show.
      return (
        record.reason === "unrestored" &&
        h(
          "li",
          { className: "note unrestored" },
          `− ${record.tools.join(", ")}: not restored${record.cause ? ` — ${record.cause}` : ""}`,
        )
      );
    default:
      return false;
  }
}
