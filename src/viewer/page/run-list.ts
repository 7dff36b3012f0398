// The runs of the folder, newest conversation first, each conversation's turns together in order.
import type { ConversationGroup, RunSummary } from "../../run-log/run-log-index.js";
import { count, h, paged, usd } from "./dom.js";

const GROUPS_PER_PAGE = 50;

/** The list; `select` opens a run. */
export function runList(
  groups: readonly ConversationGroup[],
  selected: string | undefined,
  select: (file: string) => void,
  state: { page: number },
): HTMLElement {
  const item = (run: RunSummary, turn: number) =>
    h(
      "li",
      {},
      h(
        "button",
        {
          type: "button",
          className: `run-item ${run.status}`,
          "data-file": run.file,
          "aria-current": run.file === selected ? "true" : undefined,
          onclick: () => select(run.file),
        },
        h("span", { className: `status ${run.status}` }, run.problem ? "unreadable" : run.status),
        ` ${run.kind === "resume" ? "resumed " : ""}${run.kind === "mcp" ? "MCP calls" : `turn ${turn}`}`,
        run.totalIterations !== undefined && ` · ${count(run.totalIterations)} steps`,
        run.cost !== undefined && ` · ${usd(run.cost)}`,
        h("br"),
        h("small", {}, run.startedAt ? new Date(run.startedAt).toLocaleString() : run.file),
        run.problem && h("small", { className: "problem" }, ` — ${run.problem}`),
      ),
    );
  const group = (g: ConversationGroup) =>
    h(
      "li",
      { className: g.runs.length > 1 ? "conversation" : "single" },
      g.runs.length > 1 &&
        h("div", { className: "conversation-label" }, `conversation · ${g.runs.length} runs`),
      h(
        "ol",
        {},
        g.runs.map(({ run, turn }) => item(run, turn)),
      ),
    );
  return paged(groups, group, {
    pageSize: GROUPS_PER_PAGE,
    noun: "conversations",
    className: "runs",
    page: state.page,
    onPage: (page) => (state.page = page),
  });
}
