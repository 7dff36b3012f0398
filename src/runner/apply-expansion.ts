import type { DisclosureSession } from "../disclosure/disclosure-session.js";
import { reportExpanded } from "../disclosure/report-expanded.js";
import { VisibilityExpansionRequired } from "../disclosure/visibility-expansion-required.js";
import type { Run } from "../loop/run/run.js";
import type { RestartRequest } from "../strategies/tool-injection-strategy.js";

/**
 * The one restart that does what every restart the calls of one turn asked for would have done (see
 * `laterStop`), none replacing another: one run restart, counted once against `withMaxExpansions`. Its
 * sections, overrides and unlocked tools are all of the expansions', each once, in order; a strategy's
 * restart (a reason only) beside an expansion adds its reason, and the restart is an expansion (cause
 * `expansion`), which starts again from the prompt as the strategy asked. Reasons are joined with "; ".
 */
export function oneRestart(requests: readonly RestartRequest[]): RestartRequest {
  if (requests.length === 1) return requests[0]!;
  const reason = unique(requests.map((r) => r.reason)).join("; ");
  const expansions = requests.filter((r) => r instanceof VisibilityExpansionRequired);
  if (expansions.length === 0) return { reason };
  return new VisibilityExpansionRequired(
    Object.fromEntries(expansions.flatMap((e) => Object.entries(e.requestedOverrides))),
    reason,
    unique(expansions.flatMap((e) => e.sectionKeys)),
    unique(expansions.flatMap((e) => e.unlockedTools)),
  );
}

const unique = (values: readonly string[]): string[] => [...new Set(values)];

/**
 * What a restart request changes in the run, whether the run restarts now or pauses first: an expansion's
 * sections shown in full from now on, each told to observers with its own tools (`VisibilityExpanded`, mode
 * `restart`; see `reportExpanded`).
 */
export function applyExpansion(
  run: Run,
  request: RestartRequest,
  disclosure: DisclosureSession | undefined,
): void {
  if (!(request instanceof VisibilityExpansionRequired)) return;
  for (const [sectionKey, visibility] of Object.entries(request.requestedOverrides))
    run.visibility.dispatch({ type: "SetVisibilityOverride", sectionKey, visibility });
  reportExpanded(run.events, disclosure?.template, request, "restart");
}

/**
 * The restarts that a pause won over (a call of the same turn waits for a person, see `laterStop`), applied
 * before the run pauses as one (`oneRestart`), so that its snapshot carries them: the expansion is in the
 * snapshot's visibility, and the resume, which starts a new thread, offers the tools it unlocked. A tool
 * the expansion withdrew (`read_section`, once nothing is left summarized) leaves the run's tools, which
 * the snapshot lists as those its resume must offer (a resume whose waiting call reads a section offers
 * `read_section` again to answer it, see `DisclosureSession.initialTools`); the unlocked ones come from
 * the visibility on resume, and are not added here, where they could take the room of discovered tools
 * in the budget.
 */
export function applyBeforePause(
  run: Run,
  restarts: readonly RestartRequest[],
  disclosure: DisclosureSession | undefined,
): void {
  const before = disclosure?.initialTools() ?? [];
  applyExpansion(run, oneRestart(restarts), disclosure);
  const after = new Set(disclosure?.initialTools().map((t) => t.name));
  run.registry.remove(before.filter((t) => !after.has(t.name)).map((t) => t.name));
}
