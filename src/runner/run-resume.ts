// What a resumed or continued run starts from, besides its checked snapshot: the providers a run of this
// process bound behind the snapshot it handed out (re-bound as the very objects), and the restored tools.
import type { ModelMessage } from "ai";
import type { ApprovalDecision } from "../loop/approval-gate.js";
import { snapshotProviderKey, type RunSnapshot } from "../loop/run-snapshot.js";
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
 * The providers bound by the run that made a snapshot, by the snapshot object handed out: a conversation
 * continued in the same process re-binds the very objects (their state and dependencies intact) without
 * asking `resolveProvider`. Weak: a snapshot nobody holds lets its providers go.
 */
const liveProviders = new WeakMap<object, ReadonlyMap<string, object>>();

/** Remembers the live providers behind a snapshot this process handed out. */
export function rememberLive(snapshot: RunSnapshot, live: ReadonlyMap<string, object>): void {
  liveProviders.set(snapshot, live);
}

/** The live providers behind a snapshot this process handed out, if it is one. */
export function liveOf(snapshot: RunSnapshot): ReadonlyMap<string, object> | undefined {
  return liveProviders.get(snapshot);
}

/**
 * A resolver that answers from the providers a run of this process bound (handles mode re-binds through
 * it), and asks `resolve` for any other.
 */
export function withLive(
  live: ReadonlyMap<string, object> | undefined,
  resolve: ProviderResolver | undefined,
): ProviderResolver | undefined {
  if (!live || live.size === 0) return resolve;
  return (providerClass, id) =>
    live.get(snapshotProviderKey(providerClass, typeof id, id)) ?? resolve?.(providerClass, id);
}

/**
 * What a resumed or continued run's first session starts with: its checked snapshot's calls, tools,
 * notices and the names it lost, and a continued conversation's new messages.
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
  return { paused: resume.snapshot.paused, restored, notices, lost, followUp: resume.followUp };
}
