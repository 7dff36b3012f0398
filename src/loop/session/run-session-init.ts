import type { ModelMessage } from "ai";
import type { JsonSchema } from "../../schema/json-schema.js";
import type { ToolInjectionStrategy } from "../../strategies/tool-injection-strategy.js";
import type { ToolMiddleware } from "../execution/tool-middleware.js";
import type { ToolResultMediaTypes } from "../results/media-types.js";
import type { Run } from "../run/run.js";
import type { SourceWithTools } from "../sources/source-watch.js";

/** Everything one attempt of a run starts from: the run, and the rules it runs with this attempt. */
export interface RunSessionInit {
  /** The run, its attempt started: history, tools, totals, counters, approvals, waiting calls. */
  readonly run: Run;
  readonly system?: string;
  readonly strategies: readonly ToolInjectionStrategy[];
  readonly middleware: readonly ToolMiddleware[];
  readonly outputSchema?: JsonSchema;
  readonly signal?: AbortSignal;
  /** Sources whose tools (already in the state's registry) are re-listed between steps when they change. */
  readonly sources?: readonly SourceWithTools[];
  /** On resume: what the model must be told (providers that could not be restored). */
  readonly notices?: readonly string[];
  /** On resume: tools of the snapshot that could not be restored, by name, with their provider's label. */
  readonly lost?: ReadonlyMap<string, string>;
  /**
   * A continued conversation (`continueFrom`): the new messages, appended once the snapshot's waiting
   * calls are answered (those still undecided are not run: the conversation went on without a decision).
   */
  readonly followUp?: readonly ModelMessage[];
  /** The media the backend's model takes in a tool result (the adapter's `toolResultMediaTypes`). */
  readonly toolResultMediaTypes?: ToolResultMediaTypes;
  /**
   * Told each step's number when the step has been handled (its calls answered, or its answer judged), on
   * every backend alike: a streamed run's `step-finish`.
   */
  readonly onStepFinish?: (iteration: number) => void;
}
