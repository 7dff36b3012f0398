// One run on the page: what it was and how it ended, the lines the reader skipped, what each discovered
// provider cost, and its steps fifty at a time. A run still going is drawn again as it grows: each part is
// drawn again only when what it shows changed, so the element the user is on (a step, a filter, a button)
// keeps the focus, and the page does not move.
import type { EndRecord } from "../../run-log/run-log-format.js";
import type { RunView } from "../../run-log/run-log-steps.js";
import type { ProviderCost } from "../../events/run-cost.js";
import { RunTally, type RunSoFar } from "../../run-log/run-tally.js";
import { costText, count, counted, cutNote, h, paged, pagedList, part, percent, pretty, usd } from "./dom.js";
import { mediaView, promptMedia } from "./media-view.js";
import { stateLabel, unfinishedNote, type RunState } from "./run-state.js";
import { sameStep, stepItem, stepShift } from "./step-item.js";

/** What stays when a run is drawn again (it grew): the steps page and the opened steps. */
export interface RunPanelState {
  page: number;
  readonly open: Set<number>;
}

/** What the run list says of a run's file beside its lines: whether it went quiet, when it was written. */
export type RunListing = Omit<RunState, "status">;

/** A run's panel on the page. */
export interface RunPanel {
  readonly element: HTMLElement;
  /**
   * Shows the run as it is now (it grew, or went quiet), turn `turn` of its conversation, keeping what did
   * not change.
   */
  update(run: RunView, turn: number | undefined, listing: RunListing): void;
}

const STEPS_PER_PAGE = 50;

/** The panel of `run` (from file `name`), turn `turn` of its conversation. */
export function runPanel(
  name: string,
  run: RunView,
  turn: number | undefined,
  state: RunPanelState,
  mediaUrl: (file: string) => string | undefined,
  listing: RunListing,
): RunPanel {
  // The steps drawn later (opened, another page) read the run as it is then.
  const context = { run, mediaUrl, open: state.open };
  const steps = pagedList(run.steps, (step) => stepItem(step, context), {
    pageSize: STEPS_PER_PAGE,
    noun: "steps",
    className: "steps",
    tag: "ol",
    page: state.page,
    onPage: (page) => (state.page = page),
    same: sameStep,
  });
  const parts = {
    title: part(),
    unfinished: part(),
    facts: part(),
    progress: part(),
    prompt: part(),
    error: part(),
    problems: part(),
    cut: part(),
    costs: part(),
  };
  const draw = (view: RunView, at: number | undefined, { quiet, modifiedMs }: RunListing) => {
    const { header, end } = view;
    const run: RunState = { status: end?.status ?? "open", quiet, modifiedMs, unreadable: !header };
    const now = end ? undefined : lastStepNow(view);
    parts.progress.draw([now], () => now !== undefined && h("p", { className: "progress" }, now));
    parts.title.draw([run.status, quiet, run.unreadable], () => title(name, run));
    parts.unfinished.draw([run.status, quiet, modifiedMs, run.unreadable], () => {
      const note = unfinishedNote(run);
      return note !== undefined && h("p", { className: "unfinished-note" }, note);
    });
    // A run with no end record: its figures so far, which its last step's answer changes.
    parts.facts.draw([header, end, at, view.steps.length, view.steps.at(-1)?.response], () =>
      h("p", { className: "facts" }, facts(view, at)),
    );
    parts.prompt.draw(
      [header],
      () =>
        header?.prompt !== undefined &&
        h(
          "details",
          {},
          h("summary", {}, "Prompt"),
          h("pre", {}, pretty(header.prompt)),
          cutNote(header, "prompt"),
          promptMedia(header.prompt).map((m) => mediaView(m, mediaUrl, "the prompt")),
        ),
    );
    parts.error.draw(
      [end],
      () =>
        end?.error &&
        h(
          "p",
          { className: "error" },
          `${end.error.name}${end.error.message ? `: ${end.error.message}` : ""}`,
        ),
    );
    parts.problems.draw([view.problems.map((p) => p.message).join("\n")], () => problems(view));
    parts.cut.draw(
      [view.cut],
      () =>
        view.cut &&
        h(
          "p",
          { className: "problems" },
          "The run reached its log size limit: later steps are not in the file.",
        ),
    );
    parts.costs.draw(
      [view.costs],
      () =>
        view.costs &&
        view.costs.perProvider.length > 0 &&
        providerCosts(view.costs.perProvider, view.header?.continues !== undefined),
    );
  };
  draw(run, turn, listing);
  const element = h(
    "section",
    { className: "run", "data-status": run.end?.status ?? "open", "aria-label": `run ${name}` },
    Object.values(parts).map((p) => p.node),
    steps.element,
  );
  return {
    element,
    update(now, turn, listing) {
      context.run = now;
      element.dataset["status"] = now.end?.status ?? "open";
      draw(now, turn, listing);
      steps.update(now.steps);
    },
  };
}

/** The run's outcome (or that it is running, or unfinished) and its file. */
function title(name: string, run: RunState): HTMLElement {
  const label = stateLabel(run);
  return h(
    "h2",
    {},
    h("span", { className: `status ${label}` }, label),
    " ",
    h("span", { className: "file" }, name),
  );
}

/** This file's model calls, and the run's when it goes on from earlier ones (a paused part, earlier turns). */
function modelCalls({ steps, totalIterations }: EndRecord): string {
  const calls = steps ?? totalIterations;
  const own = counted(calls, "model call");
  return steps === undefined || steps === totalIterations
    ? own
    : `${own} (${count(totalIterations)} with what it goes on from)`;
}

/** What a run with no end record did so far, from the steps on the page (the run list adds up the same). */
function soFar(view: RunView): RunSoFar {
  const tally = new RunTally();
  for (const step of view.steps) {
    if (step.record) tally.add(step.record);
    if (step.response) tally.add(step.response);
  }
  return tally.soFar;
}

/**
 * Where a run with no end record is (or was when its file was last written), at its last step: waiting for
 * the model's answer, or how many of the calls it asked for ended. Above the steps, which a long run shows
 * fifty a page: its last step is on its last page.
 */
function lastStepNow(view: RunView): string | undefined {
  const last = view.steps.at(-1);
  if (!last?.record) return undefined;
  const at = `Step ${last.step + stepShift(view)}`;
  if (!last.response) return `${at}: waiting for the model's answer`;
  const asked = last.response.calls.length;
  if (asked === 0) return `${at}: the model answered`;
  return `${at}: ${count(Math.min(last.calls.length, asked))} of ${counted(asked, "tool call")} ended`;
}

/** What the run was, how long it went and what it cost (so far, with no end record), in one line. */
function facts(view: RunView, turn: number | undefined): string {
  const { header, end } = view;
  const so = end ? undefined : soFar(view);
  const usage = end?.usage ?? so?.usage;
  const cost = end ? end.cost : so?.cost;
  const unknown = end ? end.costUnknown : so?.costUnknown;
  const cached =
    usage && usage.inputTokens > 0 ? ` (${percent(usage.cachedInputTokens / usage.inputTokens)} cached)` : "";
  return [
    header && `${header.kind}${turn === undefined ? "" : ` · turn ${turn}`}`,
    header && new Date(header.startedAt).toLocaleString(),
    end && modelCalls(end),
    so && `${counted(so.steps, "model call")} so far`,
    usage && `${count(usage.inputTokens)} in${cached} · ${count(usage.outputTokens)} out`,
    // This file's own, as its tokens are; a file that goes on from another leaves that one's out.
    cost !== undefined &&
      `cost ${costText(cost, unknown)}${so ? " so far" : ""}${header?.continues ? " (this part)" : ""}`,
    header && !header.recordContent && "content not recorded",
  ]
    .filter(Boolean)
    .join(" · ");
}

/** The lines the reader skipped, and why. */
function problems(run: RunView): HTMLElement | false {
  return (
    run.problems.length > 0 &&
    h(
      "div",
      { className: "problems", role: "status" },
      h("strong", {}, "Skipped while reading: "),
      h(
        "ul",
        {},
        run.problems.map((p) => h("li", {}, p.message)),
      ),
    )
  );
}

/**
 * What each discovered provider's tools and calls added to the cost, most expensive first: the whole run's
 * (`costs` is the result's `perProvider`), so a file that goes on from another (`continues`: a resumed run, a
 * conversation's turn) says so, beside its own cost in the run's facts.
 */
function providerCosts(costs: readonly ProviderCost[], goesOn: boolean): HTMLElement {
  const sorted = [...costs].sort((a, b) => b.cost - a.cost);
  const row = (p: ProviderCost) =>
    h(
      "li",
      {},
      h("strong", {}, `${p.identity.providerClass} ${p.identity.id}`),
      ` · ${usd(p.cost)} · ${counted(p.calls, "call")} · ${count(p.definitionTokens)} definition + ${count(p.resultTokens)} result tokens`,
    );
  return h(
    "details",
    { className: "provider-costs", open: costs.length <= 20 },
    h(
      "summary",
      {},
      `Cost per discovered provider${goesOn ? ", whole run with the parts it goes on from" : ""} (${count(costs.length)})`,
    ),
    paged(sorted, row, { pageSize: 100, noun: "providers" }),
  );
}
