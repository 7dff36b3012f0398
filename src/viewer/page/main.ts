// The viewer's page: the run list on the left, the open run on the right. It reads the run files through a
// LogSource (the server's API, or the data an exported file holds) with the same reader and view the
// library exports, and, when live, reads again whatever changed: a new run appears in the list, the open
// run grows, without a reload (open-run.ts); the list draws and reads only the runs that changed.
import { groupConversations } from "../../run-log/run-log-index.js";
import type { RunView } from "../../run-log/run-log-steps.js";
import { Announcer } from "./announce.js";
import { h } from "./dom.js";
import { listenToKeys } from "./keys.js";
import { inlineSource, servedSource, type LogEntry } from "./log-source.js";
import { OpenRun } from "./open-run.js";
import { runList } from "./run-list.js";
import { RunSummaries } from "./run-summaries.js";

const source = inlineSource() ?? servedSource();
const listBox = document.getElementById("runs")!;
const runBox = document.getElementById("run")!;
const list = runList(listBox, (file) => void select(file));
const summaries = new RunSummaries();
let entries: LogEntry[] = [];
let order: string[] = [];
let newest: string | undefined;
let turns = new Map<string, number>();
let open: OpenRun | undefined;
const announcer = new Announcer(document.getElementById("announce")!);
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
  // The server is away: the page keeps what it shows, says it is not connected (watch), and reads again
  // when it is back.
  const listed = await source.list();
  if (!listed) return;
  entries = listed;
  const read = summaries.of(entries);
  if (read.changed) {
    const groups = groupConversations(read.summaries);
    // As the list shows them ([ and ] open the run above and below); the newest is opened first.
    order = groups.flatMap((g) => g.runs.map((r) => r.run.file));
    newest = groups[0]?.runs.at(-1)?.run.file;
    turns = new Map(groups.flatMap((g) => g.runs.map((r) => [r.run.file, r.turn] as const)));
    list.update(groups);
  }
  document.getElementById("source")!.textContent = source.label;
  const wanted = decodeURIComponent(location.hash.slice(1));
  if (!open) await select(order.includes(wanted) ? wanted : newest);
  else {
    const entry = entries.find((e) => e.name === open!.name);
    if (entry && open.changed(entry)) await open.load(entry, turns.get(open.name));
  }
  if (order.length === 0) runBox.replaceChildren(h("p", { className: "empty" }, "No run logs here yet."));
}

async function select(name: string | undefined, focus = false): Promise<void> {
  if (name === undefined) return;
  open?.close();
  open = new OpenRun(name, source, runBox, shown);
  history.replaceState(null, "", `#${encodeURIComponent(name)}`);
  list.select(name, focus);
  await open.load(
    entries.find((e) => e.name === name) ?? { size: 0, headHash: "", stamp: "" },
    turns.get(name),
  );
}

/** What the page says of the run it shows (for its first paint, and for the tests that drive it). */
function shown(view: RunView, bytes: number): void {
  if (!painted) {
    painted = true;
    performance.mark("entity-tools:first-run-painted");
    document.body.dataset["ready"] = "true";
  }
  if (open) announcer.shown(open.name, view);
  document.body.dataset["steps"] = String(view.steps.length);
  // How much of the open run's file is on the page, in bytes (its unfinished last line too).
  document.body.dataset["bytes"] = String(bytes);
}

listenToKeys((delta) => {
  const at = open ? order.indexOf(open.name) : -1;
  const next = order[Math.max(0, Math.min(order.length - 1, at + delta))];
  // The focus goes to the run opened in the list: where it was (a step of the run closed) is gone.
  if (next !== undefined && next !== open?.name) void select(next, true);
});
window.addEventListener("hashchange", () => {
  const wanted = decodeURIComponent(location.hash.slice(1));
  if (wanted !== open?.name && order.includes(wanted)) void select(wanted);
});
if (source.live) {
  const live = document.getElementById("live")!;
  live.hidden = false;
  source.watch(
    () => void refresh(),
    (up) => {
      live.textContent = up ? "● live" : "○ not connected: the viewer stopped? (retrying)";
      live.className = up ? "" : "offline";
    },
  );
}
void refresh();
