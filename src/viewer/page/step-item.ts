// One step of a run on the page: a line with its numbers; under it, always, what changed in the tool set
// against the step before (with the cause) and the calls; opened, everything else (the model's text, each
// call's input and result with its pictures, the tools offered, the providers discovered).
import type { RunView, StepView, ToolChange, ToolChangeCause } from "../../run-log/run-log-steps.js";
import type { CallRecord, DiscoveredRecord, ResponseRecord } from "../../run-log/run-log-format.js";
import {
  changeCounts,
  count,
  counted,
  cutNote,
  h,
  longText,
  paged,
  percent,
  costItem,
  type Child,
} from "./dom.js";
import { callDetail } from "./call-detail.js";
import { otherLine } from "./record-line.js";

/** What a step needs from the page around it. */
export interface StepContext {
  readonly run: RunView;
  readonly mediaUrl: (file: string) => string | undefined;
  readonly open: Set<number>;
}

/** The step as a list item (`data-step`), opened when `context.open` has it. */
export function stepItem(step: StepView, context: StepContext): HTMLLIElement {
  const { record, response } = step;
  const shift = stepShift(context.run);
  const opened = context.open.has(step.step);
  const changed = (step.added?.length ?? 0) + (step.removed?.length ?? 0) > 0;
  const head = h(
    "button",
    { type: "button", className: "step-head", "aria-expanded": String(opened) },
    h("strong", {}, step.step === 0 ? `Before step ${1 + shift}` : `Step ${step.step + shift}`),
    record && ` · ${counted(record.count, "tool")}`,
    changed && ` (${changeCounts(step.added!.length, step.removed!.length)})`,
    step.calls.length > 0 && ` · ${counted(step.calls.length, "call")}`,
    response && ` · in ${count(response.usage.inputTokens)} out ${count(response.usage.outputTokens)}`,
    step.cacheShare !== undefined && ` · cached ${percent(step.cacheShare)}`,
    // Its provider reported no usage: `cost unknown`, not $0, which would read as free.
    response &&
      (response.costUnknown || response.cost !== undefined) &&
      ` · ${costItem(response.cost, response.costUnknown)}`,
  );
  // Opened and closed in place: the list keeps this element as the step's (keyed-children.ts).
  let shown: HTMLElement | false = opened && detail(step, context);
  head.addEventListener("click", () => {
    const open = !context.open.delete(step.step);
    if (open) context.open.add(step.step);
    head.setAttribute("aria-expanded", String(open));
    if (shown) shown.remove();
    shown = open && item.appendChild(detail(step, context));
  });
  const item = h(
    "li",
    { className: `step${changed ? " changed" : ""}`, "data-step": step.step },
    head,
    changes(step, shift),
    step.added === undefined &&
      step.step > 1 &&
      h("p", { className: "unknown" }, "tool set not known here (a damaged line)"),
    h("ul", { className: "calls" }, step.calls.map(callLine), step.other.map(otherLine)),
    shown,
  );
  return item;
}

/**
 * Whether a step read again shows what it showed (a live run's steps are read again as it grows): the same
 * records (a growing run keeps those it read), and changes that name the same tools and causes.
 */
export function sameStep(shown: StepView, now: StepView): boolean {
  return (
    shown.step === now.step &&
    shown.record === now.record &&
    shown.response === now.response &&
    shown.cacheShare === now.cacheShare &&
    sameItems(shown.calls, now.calls) &&
    sameItems(shown.discovered, now.discovered) &&
    sameItems(shown.other, now.other) &&
    sameChanges(shown.added, now.added) &&
    sameChanges(shown.removed, now.removed)
  );
}

function sameItems<T>(a: readonly T[], b: readonly T[]): boolean {
  return a.length === b.length && a.every((item, i) => item === b[i]);
}

function sameChanges(a: readonly ToolChange[] | undefined, b: readonly ToolChange[] | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return a.length === b.length && a.every((change, i) => sameChange(change, b[i]!));
}

function sameChange(a: ToolChange, b: ToolChange): boolean {
  if (a.tool !== b.tool) return false;
  const [x, y] = [a.cause, b.cause];
  if (x === undefined || y === undefined) return x === y;
  return (
    x.reason === y.reason &&
    x.byTool === y.byTool &&
    x.by === y.by &&
    x.byStep === y.byStep &&
    x.provider === y.provider
  );
}

/**
 * What to add to a step of the file to show the run's number of it (the `iteration` events, the stream and
 * strategies give): a resumed run's file numbers its steps from 1, its run goes on from the steps before
 * its pause. None for a file whose first step is the run's first (a log written before steps were numbered
 * by the run, too).
 */
export function stepShift(run: RunView): number {
  const first = run.steps.find((s) => s.record !== undefined)?.record;
  return first ? Math.max(0, first.iteration - first.step) : 0;
}

/** `+ a, + b — from searchCustomer at step 1, Customer c123`, one line per cause, and what broke the cache. */
function changes(step: StepView, shift: number): Child {
  const lines = [
    ...groups(step.added ?? []).map(([cause, tools]) => ({ sign: "+", cause, tools })),
    ...groups(step.removed ?? []).map(([cause, tools]) => ({ sign: "−", cause, tools })),
  ];
  if (lines.length === 0) return false;
  const line = ({ sign, cause, tools }: (typeof lines)[number]) =>
    h(
      "li",
      { className: sign === "+" ? "added" : "removed" },
      tools.map((t) => `${sign} ${t}`).join(", "),
      causeText(cause, sign, shift),
    );
  const broken =
    step.step > 1
      ? h("p", { className: "cache-broken" }, "prompt cache broken here: the tool list changed")
      : false;
  return h("div", { className: "changes" }, paged(lines, line, { pageSize: 20, noun: "changes" }), broken);
}

function groups(changes: readonly ToolChange[]): [ToolChangeCause | undefined, string[]][] {
  const byCause = new Map<string, [ToolChangeCause | undefined, string[]]>();
  for (const { tool, cause } of changes) {
    const key = JSON.stringify(cause ?? null);
    const group = byCause.get(key) ?? [cause, []];
    group[1].push(tool);
    byCause.set(key, group);
  }
  return [...byCause.values()];
}

function causeText(cause: ToolChangeCause | undefined, sign: string, shift: number): string {
  if (!cause) return sign === "+" ? "" : " — gone (no cause in the log)";
  const at = cause.byStep === undefined ? "" : ` at step ${cause.byStep + shift}`;
  const by = cause.byTool && `${cause.byTool}${at}`;
  const provider = cause.provider && `${cause.provider.providerClass} ${cause.provider.id}`;
  if (sign === "+") return ` — ${[by && `from ${by}`, provider].filter(Boolean).join(", ")}`;
  return ` — ${cause.reason ?? "removed"}${by ? ` (after ${by})` : ""}`;
}

function callLine(call: CallRecord): HTMLElement {
  const who = call.provider ? ` → ${call.provider.providerClass} ${call.provider.id}` : "";
  const how = call.ok
    ? call.durationMs === undefined
      ? ""
      : ` · ${count(call.durationMs)} ms`
    : ` · failed: ${call.reason}`;
  return h(
    "li",
    { className: `call ${call.ok ? "ok" : "failed"}`, "data-tool": call.tool },
    `${call.ok ? "✓" : "✗"} ${call.tool}${who}${how}`,
  );
}

/** What an opened step shows besides its line. */
function detail(step: StepView, context: StepContext): HTMLElement {
  const tools = step.step === 0 ? undefined : context.run.toolsAt(step.step);
  const { response } = step;
  return h(
    "div",
    { className: "detail" },
    (response?.text || response?.modelId) &&
      h(
        "section",
        {},
        h("h4", {}, "Model"),
        response.modelId && h("p", { className: "model-id" }, modelLine(response)),
        step.otherModels?.map((r) => h("p", { className: "model-id other" }, otherModelLine(r))),
        response.text && longText("text", response.text),
        response.text && cutNote(response, "text"),
      ),
    step.calls.length > 0 &&
      h(
        "section",
        {},
        h("h4", {}, "Calls"),
        step.calls.map((c) => callDetail(c, context.mediaUrl)),
      ),
    tools &&
      h(
        "section",
        { className: "offered" },
        h("h4", {}, `Tools offered (${count(tools.length)})`),
        toolList(tools),
      ),
    step.discovered.length > 0 &&
      h(
        "section",
        { className: "discovered" },
        h("h4", {}, `Providers discovered (${count(step.discovered.length)})`),
        providerTable(step.discovered),
      ),
  );
}

/** The model the step asked for, and the one the response named when another (a dated snapshot). */
const modelLine = ({ modelId, responseModelId: answered }: ResponseRecord) =>
  answered !== undefined && answered !== modelId ? `${modelId} (answered as ${answered})` : `${modelId}`;

/** Another model's calls during the step's turn (a subagent's), with their own tokens and cost. */
const otherModelLine = ({ modelId, usage, cost, costUnknown }: ResponseRecord) =>
  `also ${modelId}: in ${count(usage.inputTokens)} out ${count(usage.outputTokens)}${costUnknown || cost !== undefined ? ` · ${costItem(cost, costUnknown)}` : ""}`;

/** Tools offered, filterable, a page at a time. */
function toolList(tools: readonly string[]): HTMLElement {
  const box = h("div", {});
  const filter = h("input", { type: "search", placeholder: "filter tools", "aria-label": "filter tools" });
  const render = () => {
    const wanted = filter.value.trim().toLowerCase();
    const shown = wanted ? tools.filter((t) => t.toLowerCase().includes(wanted)) : tools;
    box.replaceChildren(
      paged(shown, (t) => h("li", {}, t), { pageSize: 200, noun: "tools", className: "tool-names" }),
    );
  };
  filter.addEventListener("input", render);
  render();
  return h("div", {}, filter, box);
}

function providerTable(found: readonly DiscoveredRecord[]): HTMLElement {
  const row = (d: DiscoveredRecord) =>
    h(
      "li",
      {},
      h("strong", {}, `${d.provider.providerClass} ${d.provider.id}`),
      d.handle ? ` · handle ${d.handle}` : ` · ${d.tools.join(", ")}`,
      d.definitionTokens > 0 && ` · ${count(d.definitionTokens)} definition tokens`,
      d.by && ` · found by ${d.by}`,
    );
  return paged(found, row, { pageSize: 100, noun: "providers", className: "providers" });
}
