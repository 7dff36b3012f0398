// The viewer's page: the run list on the left, the open run on the right. It reads the run files through a
// LogSource (the server's API, or the data an exported file holds) with the same reader and view the
// library exports, and, when live, reads again whatever changed: a new run appears in the list, the open
// run grows, without a reload.
import { readRunLog } from "../../run-log/read-run-log.js";
import { groupConversations, summarizeRun, type ConversationGroup } from "../../run-log/run-log-index.js";
import { runView } from "../../run-log/run-log-steps.js";
import { h } from "./dom.js";
import { listenToKeys } from "./keys.js";
import { inlineSource, servedSource, type LogEntry } from "./log-source.js";
import { runList } from "./run-list.js";
import { runPanel, type RunPanelState } from "./run-panel.js";

const source = inlineSource() ?? servedSource();
const listBox = document.getElementById("runs")!;
const runBox = document.getElementById("run")!;
const listState = { page: 0 };
let entries: LogEntry[] = [];
let groups: ConversationGroup[] = [];
let order: string[] = [];
let turns = new Map<string, number>();
let open:
  | { name: string; text: string; partial: string; next: number; size: number; panel: RunPanelState }
  | undefined;
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
    if (entry && entry.size !== open.size) await load(entry.size);
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
  open = { name, text: "", partial: "", next: 0, size: 0, panel: { page: 0, open: new Set() } };
  history.replaceState(null, "", `#${encodeURIComponent(name)}`);
  drawList();
  await load(entries.find((e) => e.name === name)?.size ?? 0);
}

/**
 * Reads what the open run's file gained since the last read, and draws the run again. A last line without
 * its newline (being written, or cut short by a crash) is read with the rest, and read again next time.
 */
function load(size: number): Promise<void> {
  // One read at a time: two reads from the same offset would add the same lines twice.
  loading = loading
    .then(() => loadNow(size))
    .catch((error: unknown) => {
      runBox.replaceChildren(h("p", { className: "error" }, `Could not read the run: ${String(error)}`));
    });
  return loading;
}
let loading = Promise.resolve();

async function loadNow(size: number): Promise<void> {
  const run = open!;
  const read = await source.read(run.name, run.next);
  if (open !== run) return; // another run was opened meanwhile
  const cut = read.text.lastIndexOf("\n") + 1;
  run.text += read.text.slice(0, cut);
  run.partial = read.text.slice(cut);
  run.next = read.next;
  run.size = size;
  const view = runView(readRunLog(run.text + run.partial));
  runBox.replaceChildren(
    runPanel(run.name, view, turns.get(run.name), run.panel, (file) => source.mediaUrl(file)),
  );
  if (!painted) {
    painted = true;
    performance.mark("entity-tools:first-run-painted");
    document.body.dataset["ready"] = "true";
  }
  document.body.dataset["steps"] = String(view.steps.length);
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
