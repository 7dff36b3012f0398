// A call's approval records in the run log's format (run-log-format.ts): browser-safe types only.
import type { ProviderToolIdentity } from "../tools/provider-identity.js";
import type { MayHoldCutValues } from "./cut-value.js";

/** A call waits for a person's decision (the run pauses). */
export interface ApprovalAskedRecord extends MayHoldCutValues {
  /** `"approval-asked"`: a call waits for a person. */ readonly type: "approval-asked";
  /** The step whose model response asked for the call. */
  readonly step: number;
  /** The call's id, which the decision names (`approvals` of `resume`). */
  readonly id: string;
  /** The tool the call would run, by name. */
  readonly tool: string;
  /** The call's input; absent without `recordContent`. */
  readonly input?: unknown;
  /** For a discovered provider's tool: the provider and the method. */
  readonly provider?: ProviderToolIdentity;
}

/** A resumed run received a decision on a waiting call. */
export interface ApprovalDecidedRecord extends MayHoldCutValues {
  /** `"approval-decided"`: a decision on a waiting call arrived. */ readonly type: "approval-decided";
  /** The step it arrived at (0: at a resume, before the first model call). */
  readonly step: number;
  /** The call's id, as on its `approval-asked` record. */
  readonly id: string;
  /** The tool the call runs, by name. */
  readonly tool: string;
  /** True when the person allowed the call; false when they denied it. */
  readonly approved: boolean;
  /** A denial's reason, as the person gave it; absent without one or without `recordContent`. */
  readonly reason?: string;
}
