// The runs of the folder, newest conversation first, each conversation's turns together in order. Drawn
// again at every change of the folder, it keeps each run's element while its summary is the same one and
// each conversation's while it goes on: only a run added or changed is drawn, and the button that has the
// focus, the run open and the reader's place stay (kept here, not left to the browser's scroll anchoring,
// which not every browser has). The list is one stop of the Tab key (the run open, else the run last
// focused): the arrows and j/k move in it (keys.ts), and one Tab goes on to the open run.
import type { ConversationGroup, ConversationRun } from "../../run-log/run-log-index.js";
import { costItem, counted, h, pagedList } from "./dom.js";
import { keyedChildren } from "./keyed-children.js";
import { stateLabel, unfinishedFact, unfinishedNote, type RunState } from "./run-state.js";

const GROUPS_PER_PAGE = 50;

/** The run list on the page. */
export interface RunList {
  readonly element: HTMLElement;
  /** Shows the runs as they are now, keeping what did not change. */
  update(groups: readonly ConversationGroup[]): void;
  /** Marks the run of `file` as the one open (the list's Tab stop), and gives it the focus when `focus`. */
  select(file: string, focus?: boolean): void;
}

/** The list in `box` (which scrolls it), empty until updated; `open` opens a run. */
export function runList(box: HTMLElement, open: (file: string) => void): RunList {
  let selected: string | undefined;
  /** The run the Tab key stops at in the list: the one open, or the one last focused. */
  let stop: string | undefined;
  const item = ({ run, turn }: ConversationRun) => {
    const state: RunState = { ...run, unreadable: run.problem !== undefined };
    return h(
      "li",
      {},
      h(
        "button",
        {
          type: "button",
          className: `run-item ${run.status}`,
          "data-file": run.file,
          "aria-current": run.file === selected ? "true" : undefined,
          tabindex: run.file === stop ? 0 : -1,
          onclick: () => open(run.file),
        },
        h("span", { className: `status ${stateLabel(state)}` }, stateLabel(state)),
        ` ${run.kind === "resume" ? "resumed " : ""}${run.kind === "mcp" ? "MCP calls" : `turn ${turn}`}`,
        // Its own steps, beside its own tokens and cost (a later turn's total counts the earlier turns');
        // a run with no end record's so far.
        run.steps !== undefined && ` · ${counted(run.steps, "step")}`,
        run.cost !== undefined && ` · ${costItem(run.cost, run.costUnknown)}`,
        run.status === "open" && run.steps !== undefined && " so far",
        h("br"),
        h("small", {}, run.startedAt ? new Date(run.startedAt).toLocaleString() : run.file),
        run.problem && h("small", { className: "problem" }, ` — ${run.problem}`),
        unfinishedFact(state) &&
          h(
            "small",
            { className: "unfinished-note", title: unfinishedNote(state) },
            ` — ${unfinishedFact(state)}`,
          ),
      ),
    );
  };
  // Each conversation's element, and how to bring it up to date when its runs changed.
  const conversations = new WeakMap<Node, (group: ConversationGroup) => void>();
  const conversation = (group: ConversationGroup) => {
    const label = h("div", { className: "conversation-label" });
    const runs = h("ol");
    const node = h("li", {}, label, runs);
    const drawRuns = keyedChildren(runs, {
      key: ({ run }: ConversationRun) => run.file,
      render: item,
      same: (shown, now) => shown.run === now.run && shown.turn === now.turn,
    });
    const draw = (now: ConversationGroup) => {
      const several = now.runs.length > 1;
      node.className = several ? "conversation" : "single";
      label.hidden = !several && now.conversationId === undefined;
      // The caller's conversation id (the store's key), when the runs were given one: what to look it up by.
      const named = now.conversationId === undefined ? "" : ` ${JSON.stringify(now.conversationId)}`;
      // Its cost is its runs' own added up: each model call once (see ConversationGroup.cost).
      const cost =
        now.cost === undefined
          ? ""
          : ` · ${costItem(now.cost, now.costUnknown)}${stillWritten(now) ? " so far" : ""}`;
      label.textContent = `conversation${named} · ${counted(now.runs.length, "run")}${cost}`;
      drawRuns(now.runs);
    };
    draw(group);
    conversations.set(node, draw);
    return node;
  };
  const button = (file: string) =>
    box.querySelector<HTMLElement>(`.run-item[data-file="${CSS.escape(file)}"]`);
  /** Makes `file`'s run the list's one Tab stop; the first run shown when it is not on this page. */
  const stopAt = (file: string | undefined) => {
    for (const other of box.querySelectorAll<HTMLElement>('.run-item[tabindex="0"]')) other.tabIndex = -1;
    const target = (file === undefined ? null : button(file)) ?? box.querySelector<HTMLElement>(".run-item");
    if (target) target.tabIndex = 0;
    stop = target?.dataset["file"] ?? file;
  };
  const list = pagedList<ConversationGroup>([], conversation, {
    pageSize: GROUPS_PER_PAGE,
    noun: "conversations",
    className: "runs",
    key: (group) => group.runs[0]!.run.file,
    same: (shown, now) =>
      shown.conversationId === now.conversationId &&
      shown.runs.length === now.runs.length &&
      shown.runs.every((r, i) => r.run === now.runs[i]!.run && r.turn === now.runs[i]!.turn),
    patch: (node, now) => conversations.get(node)!(now),
    onPage: () => stopAt(stop),
  });
  box.addEventListener("focusin", (event) => {
    const file = (event.target as HTMLElement).dataset["file"];
    if (file !== undefined) stopAt(file);
  });
  box.replaceChildren(list.element);
  return {
    element: list.element,
    update(groups) {
      const focused = (document.activeElement as HTMLElement | null)?.dataset["file"];
      const anchor = box.scrollTop > 0 ? place(box) : undefined;
      list.update(groups); // its onPage moves the Tab stop when the run it was on is no longer shown
      // A run whose conversation took another first run (an earlier turn's file appeared) was drawn anew.
      if (focused && !document.activeElement?.closest(".runs"))
        button(focused)?.focus({ preventScroll: true });
      if (anchor?.element.isConnected)
        box.scrollTop += anchor.element.getBoundingClientRect().top - anchor.top;
    },
    select(file, focus = false) {
      if (selected !== undefined) button(selected)?.removeAttribute("aria-current");
      selected = file;
      button(file)?.setAttribute("aria-current", "true");
      stopAt(file);
      if (focus) button(file)?.focus();
    },
  };
}

/** Whether a run of the conversation has no end record yet: its cost is what was written so far. */
function stillWritten(group: ConversationGroup): boolean {
  return group.runs.some(({ run }) => run.status === "open");
}

/**
 * Where the reader is in the scrolled list: the run that has the focus, else the first run in view, and
 * how far from the top of the window it is.
 */
function place(box: HTMLElement): { element: Element; top: number } | undefined {
  const focused = document.activeElement;
  const top = box.getBoundingClientRect().top;
  const element = focused?.closest(".run-item")
    ? focused
    : [...box.querySelectorAll(".run-item")].find((b) => b.getBoundingClientRect().bottom > top);
  return element && { element, top: element.getBoundingClientRect().top };
}
