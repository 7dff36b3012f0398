// The viewer's page: the run list on the left, the open run on the right. It reads the run files through a
// LogSource (the server's API, or the data an exported file holds) with the same reader and view the
// library exports, and, when live, reads again whatever changed: a new run appears in the list, the open
// run grows, without a reload (open-run.ts).
import { readRunLog } from "../../run-log/read-run-log.js";
import { groupConversations, summarizeRun, type ConversationGroup } from "../../run-log/run-log-index.js";
import type { RunView } from "../../run-log/run-log-steps.js";
import { h } from "./dom.js";
import { listenToKeys } from "./keys.js";
import { inlineSource, servedSource, type LogEntry } from "./log-source.js";
import { OpenRun } from "./open-run.js";
import { runList } from "./run-list.js";

const source = inlineSource() ?? servedSource();
const listBox = document.getElementById("runs")!;
const runBox = document.getElementById("run")!;
const listState = { page: 0 };
let entries: LogEntry[] = [];
let groups: ConversationGroup[] = [];
let order: string[] = [];
let turns = new Map<string, number>();
let open: OpenRun | undefined;
let painted = false;

let refreshing: Promise<void> | undefined;
let again = false;

/** Reads the list again (and what the open run gained); one at a time, the last change never missed. */
function refresh(): Promise<void> {
  if (refreshing) {
    again = true;
    return refreshing;
  }
  refreshing = reread().finally(() => {
    refreshing = undefined;
    if (again) {
      again = false;
      void refresh();
    }
  });
  return refreshing;
}

async function reread(): Promise<void> {
  entries = await source.list();
  const summaries = entries.map(({ name, head, tail }) =>
    summarizeRun(name, readRunLog(tail && tail !== head ? `${head}\n${tail}\n` : `${head}\n`)),
  );
  groups = groupConversations(summaries);
  order = groups.flatMap((g) => [...g.runs].reverse().map((r) => r.run.file));
  turns = new Map(groups.flatMap((g) => g.runs.map((r) => [r.run.file, r.turn] as const)));
  document.getElementById("source")!.textContent = source.label;
  drawList();
  const wanted = decodeURIComponent(location.hash.slice(1));
  if (!open) await select(order.includes(wanted) ? wanted : order[0]);
  else {
    const entry = entries.find((e) => e.name === open!.name);
    if (entry && open.changed(entry)) await open.load(entry, turns.get(open.name));
  }
  if (order.length === 0) runBox.replaceChildren(h("p", { className: "empty" }, "No run logs here yet."));
}

function drawList(): void {
  const focused = (document.activeElement as HTMLElement | null)?.dataset["file"];
  listBox.replaceChildren(runList(groups, open?.name, (file) => void select(file), listState));
  if (focused) listBox.querySelector<HTMLElement>(`[data-file="${CSS.escape(focused)}"]`)?.focus();
}

async function select(name: string | undefined): Promise<void> {
  if (name === undefined) return;
  open?.close();
  open = new OpenRun(name, source, runBox, shown);
  history.replaceState(null, "", `#${encodeURIComponent(name)}`);
  drawList();
  await open.load(entries.find((e) => e.name === name) ?? { size: 0, head: "" }, turns.get(name));
}

/** What the page says of the run it shows (for its first paint, and for the tests that drive it). */
function shown(view: RunView, bytes: number): void {
  if (!painted) {
    painted = true;
    performance.mark("entity-tools:first-run-painted");
    document.body.dataset["ready"] = "true";
  }
  document.body.dataset["steps"] = String(view.steps.length);
  // How much of the open run's file is on the page, in bytes (its unfinished last line too).
  document.body.dataset["bytes"] = String(bytes);
}

listenToKeys((delta) => {
  const at = open ? order.indexOf(open.name) : -1;
  const next = order[Math.max(0, Math.min(order.length - 1, at + delta))];
  if (next !== undefined && next !== open?.name) void select(next);
});
window.addEventListener("hashchange", () => {
  const wanted = decodeURIComponent(location.hash.slice(1));
  if (wanted !== open?.name && order.includes(wanted)) void select(wanted);
});
if (source.live) {
  document.getElementById("live")!.hidden = false;
  source.watch(() => void refresh());
}
void refresh();
