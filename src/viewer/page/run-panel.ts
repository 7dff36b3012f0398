// One run on the page: what it was and how it ended, the lines the reader skipped, what each discovered
// provider cost, and its steps fifty at a time.
import type { RunView } from "../../run-log/run-log-steps.js";
import type { ProviderCost } from "../../events/run-cost.js";
import { count, h, paged, percent, pretty, usd } from "./dom.js";
import { stepItem } from "./step-item.js";

/** What stays when a run is drawn again (it grew): the steps page and the opened steps. */
export interface RunPanelState {
  page: number;
  readonly open: Set<number>;
}

const STEPS_PER_PAGE = 50;

/** The panel of `run` (from file `name`), turn `turn` of its conversation. */
export function runPanel(
  name: string,
  run: RunView,
  turn: number | undefined,
  state: RunPanelState,
  mediaUrl: (file: string) => string | undefined,
): HTMLElement {
  const { header, end } = run;
  const status = end ? end.status : "open (running, or its process stopped)";
  const usage = end?.usage;
  const cached =
    usage && usage.inputTokens > 0 ? ` (${percent(usage.cachedInputTokens / usage.inputTokens)} cached)` : "";
  const facts = [
    header && `${header.kind}${turn === undefined ? "" : ` · turn ${turn}`}`,
    header && new Date(header.startedAt).toLocaleString(),
    end && `${count(end.totalIterations)} model calls`,
    usage && `${count(usage.inputTokens)} in${cached} · ${count(usage.outputTokens)} out`,
    end?.cost !== undefined && `cost ${usd(end.cost)}`,
    header && !header.recordContent && "content not recorded",
  ].filter(Boolean);
  return h(
    "section",
    { className: "run", "data-status": end?.status ?? "open", "aria-label": `run ${name}` },
    h(
      "h2",
      {},
      h("span", { className: `status ${end?.status ?? "open"}` }, status),
      " ",
      h("span", { className: "file" }, name),
    ),
    h("p", { className: "facts" }, facts.join(" · ")),
    header?.prompt !== undefined &&
      h("details", {}, h("summary", {}, "Prompt"), h("pre", {}, pretty(header.prompt))),
    end?.error &&
      h("p", { className: "error" }, `${end.error.name}${end.error.message ? `: ${end.error.message}` : ""}`),
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
      ),
    run.cut &&
      h(
        "p",
        { className: "problems" },
        "The run reached its log size limit: later steps are not in the file.",
      ),
    run.costs && run.costs.perProvider.length > 0 && providerCosts(run.costs.perProvider),
    paged(run.steps, (step) => stepItem(step, { run, mediaUrl, open: state.open }), {
      pageSize: STEPS_PER_PAGE,
      noun: "steps",
      className: "steps",
      tag: "ol",
      page: state.page,
      onPage: (page) => (state.page = page),
    }),
  );
}

/** What each discovered provider's tools and calls added to the cost, most expensive first. */
function providerCosts(costs: readonly ProviderCost[]): HTMLElement {
  const sorted = [...costs].sort((a, b) => b.cost - a.cost);
  const row = (p: ProviderCost) =>
    h(
      "li",
      {},
      h("strong", {}, `${p.identity.providerClass} ${p.identity.id}`),
      ` · ${usd(p.cost)} · ${count(p.calls)} call${p.calls === 1 ? "" : "s"} · ${count(p.definitionTokens)} definition + ${count(p.resultTokens)} result tokens`,
    );
  return h(
    "details",
    { className: "provider-costs", open: costs.length <= 20 },
    h("summary", {}, `Cost per discovered provider (${count(costs.length)})`),
    paged(sorted, row, { pageSize: 100, noun: "providers" }),
  );
}
