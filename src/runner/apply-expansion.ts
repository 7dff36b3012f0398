import type { DisclosureSession } from "../disclosure/disclosure-session.js";
import { VisibilityExpansionRequired } from "../disclosure/visibility-expansion-required.js";
import type { Run } from "../loop/run/run.js";
import type { RestartRequest } from "../strategies/tool-injection-strategy.js";

/**
 * What a restart request changes in the run, whether the run restarts now or pauses first: an expansion's
 * sections shown in full from now on, each told to observers (`VisibilityExpanded`, mode `restart`).
 */
export function applyExpansion(run: Run, request: RestartRequest): void {
  if (!(request instanceof VisibilityExpansionRequired)) return;
  for (const [sectionKey, visibility] of Object.entries(request.requestedOverrides))
    run.visibility.dispatch({ type: "SetVisibilityOverride", sectionKey, visibility });
  for (const sectionKey of request.sectionKeys)
    run.events.emit({
      type: "VisibilityExpanded",
      sectionKey,
      mode: "restart",
      unlockedTools: request.unlockedTools,
    });
}

/**
 * A restart that a pause won over (a call of the same turn waits for a person, see `laterStop`), applied
 * before the run pauses, so that its snapshot carries it: the expansion is in the snapshot's visibility,
 * and the resume, which starts a new thread, offers the tools it unlocked. A tool the expansion withdrew
 * (`read_section`, once nothing is left summarized) leaves the run's tools, which the snapshot lists as
 * those its resume must offer; the unlocked ones come from the visibility on resume, and are not added
 * here, where they could take the room of discovered tools in the budget.
 */
export function applyBeforePause(
  run: Run,
  request: RestartRequest,
  disclosure: DisclosureSession | undefined,
): void {
  const before = disclosure?.initialTools() ?? [];
  applyExpansion(run, request);
  const after = new Set(disclosure?.initialTools().map((t) => t.name));
  run.registry.remove(before.filter((t) => !after.has(t.name)).map((t) => t.name));
}
