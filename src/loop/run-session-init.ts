import type { ModelMessage } from "ai";
import type { RunEvents } from "../events/run-events.js";
import type { JsonSchema } from "../schema/json-schema.js";
import type { ToolInjectionStrategy } from "../strategies/tool-injection-strategy.js";
import type { AnyTool } from "../tools/tool.js";
import type { ApprovalGate } from "./approval-gate.js";
import type { ToolMiddleware } from "./execution/tool-middleware.js";
import type { ToolResultMediaTypes } from "./media-types.js";
import type { SnapshotContext } from "./run-snapshot-writer.js";
import type { RunSettings } from "./run-settings.js";
import type { SourceWithTools } from "./source-watch.js";
import type { PausedCalls } from "./step-outcome.js";

/** Everything one run starts from. */
export interface RunSessionInit {
  readonly messages: readonly ModelMessage[];
  readonly system?: string;
  readonly tools: readonly AnyTool[];
  readonly strategies: readonly ToolInjectionStrategy[];
  readonly middleware: readonly ToolMiddleware[];
  readonly settings: RunSettings;
  readonly outputSchema?: JsonSchema;
  readonly signal?: AbortSignal;
  readonly events: RunEvents;
  /** Sources whose tools (already among `tools`) are re-listed between steps when they change. */
  readonly sources?: readonly SourceWithTools[];
  /** Which calls need a person's approval, and the decisions given on resume. */
  readonly approvals?: ApprovalGate;
  /** On resume: the calls the snapshot's last message left waiting. */
  readonly paused?: PausedCalls;
  /** On resume: the discovered tools re-bound to their providers (added without events). */
  readonly restored?: readonly AnyTool[];
  /** On resume: what the model must be told (providers that could not be restored). */
  readonly notices?: readonly string[];
  /** On resume: tools of the snapshot that could not be restored, by name, with their provider's label. */
  readonly lost?: ReadonlyMap<string, string>;
  /**
   * A continued conversation (`continueFrom`): the new messages, appended once the snapshot's waiting
   * calls are answered (those still undecided are not run: the conversation went on without a decision).
   */
  readonly followUp?: readonly ModelMessage[];
  /** How the run is written down (what came before this attempt, disclosure state, keys). */
  readonly snapshot?: SnapshotContext;
  /** The media the backend's model takes in a tool result (the adapter's `toolResultMediaTypes`). */
  readonly toolResultMediaTypes?: ToolResultMediaTypes;
}
