// What a resumed or continued run starts from besides what its `Run` read from the snapshot: the providers
// re-bound (the live ones a run of this process bound behind the snapshot, else `resolveProvider`) and the
// restored tools.
import type { RunResume } from "./run.js";
import type { ResumedRun } from "./run-reader.js";
import type { HandleDiscovery } from "../../strategies/handle-discovery.js";
import type { AnyTool } from "../../tools/tool.js";
import { deliveredAs, type ToolDelivery } from "../../tools/tool-delivery.js";
import { checkSnapshotTools, restoreTools, type ProviderResolver } from "./restore-tools.js";

/** What a resumed run starts from: what its `Run` reads, and how its providers are found again. */
export interface ResumeFrom extends RunResume {
  readonly resolveProvider?: ProviderResolver;
}

/**
 * What a resumed or continued run's first attempt starts with besides what its run read (`Run.fromSnapshot`:
 * the history, the waiting calls, the counts): the restored tools, the notices and the names it lost (and
 * each provider it could not restore, for observers), and a continued conversation's new messages.
 */
export async function resumeState(
  resumed: ResumedRun,
  resolveProvider: ProviderResolver | undefined,
  offered: readonly AnyTool[],
  handles: HandleDiscovery | undefined,
  signal: AbortSignal | undefined,
  delivery: ToolDelivery | undefined,
) {
  const { snapshot, live, followUp } = resumed;
  // A resumed run's waiting calls need the tools they name. A continued conversation goes on with this
  // runner's tools: one a deploy renamed or removed is an unknown tool if the model calls it again.
  if (!followUp) checkSnapshotTools(snapshot, new Set(offered.map((t) => t.name)));
  const { tools, notices, lost, unrestored } = await restoreTools(
    snapshot,
    resolveProvider,
    handles,
    live,
    signal,
  );
  // Restored discovered tools reach the model as the run's discovery delivers them.
  const restored = deliveredAs(tools, delivery);
  return { restored, notices, lost, unrestored, followUp };
}
