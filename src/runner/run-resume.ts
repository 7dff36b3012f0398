// What a resumed or continued run starts from, besides its checked snapshot: the providers a run of this
// process bound behind the snapshot it handed out (`RunState.liveProviders`, re-bound as the very
// objects), and the restored tools.
import type { ModelMessage } from "ai";
import type { ApprovalDecision } from "../loop/approval-gate.js";
import type { RunSnapshot } from "../loop/run-snapshot.js";
import type { HandleDiscovery } from "../strategies/handle-discovery.js";
import type { AnyTool } from "../tools/tool.js";
import { deliveredAs, type ToolDelivery } from "../tools/tool-delivery.js";
import { checkSnapshotTools, restoreTools, type ProviderResolver } from "./restore-tools.js";

/** What a resumed run starts from. */
export interface ResumeFrom {
  readonly snapshot: RunSnapshot;
  /** Decisions on the calls the snapshot paused before, by `approvalId`. */
  readonly approvals: Readonly<Record<string, ApprovalDecision>>;
  readonly resolveProvider?: ProviderResolver;
  /** `continueFrom`: the new messages the conversation goes on with. */
  readonly followUp?: readonly ModelMessage[];
}

/** A resume whose snapshot has been checked and copied, with the live providers of its run, if any. */
export type CheckedResume = ResumeFrom & { readonly live: ReadonlyMap<string, object> | undefined };

/**
 * What a resumed or continued run's first attempt starts with besides its state (`RunState.fromSnapshot`:
 * the history, the waiting calls, the counts): the restored tools, the notices and the names it lost, and a
 * continued conversation's new messages.
 */
export async function resumeState(
  resume: ResumeFrom & { readonly live?: ReadonlyMap<string, object> },
  offered: readonly AnyTool[],
  handles: HandleDiscovery | undefined,
  signal: AbortSignal | undefined,
  delivery: ToolDelivery | undefined,
) {
  // A resumed run's waiting calls need the tools they name. A continued conversation goes on with this
  // runner's tools: one a deploy renamed or removed is an unknown tool if the model calls it again.
  if (!resume.followUp) checkSnapshotTools(resume.snapshot, new Set(offered.map((t) => t.name)));
  const { tools, notices, lost } = await restoreTools(
    resume.snapshot,
    resume.resolveProvider,
    handles,
    resume.live,
    signal,
  );
  // Restored discovered tools reach the model as the run's discovery delivers them.
  const restored = deliveredAs(tools, delivery);
  return { restored, notices, lost, followUp: resume.followUp };
}
