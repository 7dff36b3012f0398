// The run log's format (version 1): one JSON object per line, the run's header first. Plain types and two
// constants, read by the writer, the reader and the viewer's page alike (which runs in a browser: nothing
// here may import Node). docs/run-viewer.md describes it and docs/run-log.schema.json checks it.
//
// Invariants the writer keeps: the header is line 1; every record after it names the step it belongs to
// (0: before the run's first model call, as a resumed run's decided calls are); a step's tool set is written
// whole at step 1 and every `TOOL_SET_CHECKPOINT` steps, and as a change against the step before otherwise.
import type { ProviderCost } from "../events/run-cost.js";
import type { TokenUsage } from "../events/token-usage.js";
import type { ProviderIdentity, ProviderToolIdentity } from "../tools/provider-identity.js";

/** The `format` of a run log's header. */
export const RUN_LOG_FORMAT = "entity-tools/run-log";
/** The format version this package writes and reads. */
export const RUN_LOG_VERSION = 1;
/** A step's whole tool set is written at least this often (in steps), so a damaged line loses little. */
export const TOOL_SET_CHECKPOINT = 100;

/** How a logged run began: a prompt, a resume with decisions, a conversation's next turn, or MCP calls. */
export type RunLogKind = "run" | "resume" | "continue" | "mcp";

/** Line 1 of a run's file. */
export interface RunHeaderRecord {
  readonly type: "run";
  readonly format: typeof RUN_LOG_FORMAT;
  readonly version: number;
  /** The file's id (its name without `.jsonl`): the time the run began and a random suffix. */
  readonly id: string;
  readonly kind: RunLogKind;
  /** ISO 8601. */
  readonly startedAt: string;
  /** False: the file holds names, counts, tokens and cost, and no inputs, results, prompts or texts. */
  readonly recordContent: boolean;
  /**
   * For a resumed or continued run: the `id` of the run that wrote the snapshot it goes on from, which the
   * snapshot names (`RunSnapshot.log`): how the viewer puts a conversation's turns together.
   */
  readonly continues?: string;
  /** The messages the run starts with (its prompt, or a continued conversation's new messages). */
  readonly prompt?: unknown;
  /** The system prompt, when it is plain text. */
  readonly system?: string;
}

/** A model call is about to be made, with the tools offered to it. */
export interface StepRecord {
  readonly type: "step";
  /** Steps of this file, numbered from 1. */
  readonly step: number;
  /** The run's own iteration number (it starts again at 1 after a restart or a resume). */
  readonly iteration: number;
  /** Milliseconds since the run began. */
  readonly ms: number;
  /** How many tools are offered. */
  readonly count: number;
  /** Every tool offered (step 1, a checkpoint step, or after a damaged stretch). */
  readonly tools?: readonly string[];
  /** Otherwise: the tools offered now that were not at the step before, */
  readonly added?: readonly string[];
  /** and the tools offered at the step before that are not now. */
  readonly removed?: readonly string[];
}

/** The model answered a step. */
export interface ResponseRecord {
  readonly type: "response";
  readonly step: number;
  readonly ms: number;
  readonly durationMs: number;
  readonly modelId?: string;
  readonly usage: TokenUsage;
  /** USD, with pricing (`withPricing`). */
  readonly cost?: number;
  readonly text?: string;
  /** The tools the model asked to call, in order (each call's `call` record holds its input). */
  readonly calls: readonly { readonly tool: string }[];
}

/** A media part of a call's result, written as a file beside the log. */
export interface MediaRecord {
  readonly type: "image" | "audio" | "file";
  readonly mediaType: string;
  /** The file, relative to the log's folder (`<run id>.media/1.png`); absent when it was not written. */
  readonly file?: string;
  /** The part's URL, when the result named one instead of holding bytes. */
  readonly url?: string;
  readonly filename?: string;
  /** Why the file is missing (no content recorded, the size limit). */
  readonly skipped?: string;
}

/** A tool call ended: with a result, or with an error result the model read. */
export interface CallRecord {
  readonly type: "call";
  readonly step: number;
  readonly ms: number;
  readonly id: string;
  readonly tool: string;
  readonly ok: boolean;
  /** Why it failed (see `ToolFailureReason`). */
  readonly reason?: string;
  readonly durationMs?: number;
  readonly input?: unknown;
  /** The text the model read back (the error message, for a failed call). */
  readonly result?: string;
  readonly media?: readonly MediaRecord[];
  /** In handles mode: the provider the call's handle names. */
  readonly provider?: ProviderIdentity;
}

/** A provider's tools were bound (per instance) or its handle made live (handles mode). */
export interface DiscoveredRecord {
  readonly type: "discovered";
  readonly step: number;
  readonly provider: ProviderIdentity;
  /** The call whose result returned it. */
  readonly by?: string;
  readonly tools: readonly string[];
  /** Per instance: the method each tool runs, by tool name. */
  readonly methods?: Readonly<Record<string, string>>;
  readonly handle?: string;
  /** An earlier instance with the same identity held these tools before. */
  readonly replaced?: boolean;
  /** Estimated tokens its tools' definitions add to every request that offers them. */
  readonly definitionTokens: number;
  readonly delivery?: "deferred";
}

/** Tools joined the run. */
export interface AddedRecord {
  readonly type: "added";
  readonly step: number;
  readonly tools: readonly string[];
  /** The tool whose result caused it (`read_section`), or a dynamic source's label. */
  readonly byTool: string;
  /** The call, when a call caused it. */
  readonly by?: string;
}

/** Tools left the run: a strategy removed them, the budget pushed them out, or a source dropped them. */
export interface RemovedRecord {
  readonly type: "removed";
  readonly step: number;
  readonly tools: readonly string[];
  readonly reason: "strategy" | "budget" | "source";
  readonly by?: string;
}

/** The run started again from its prompt (`reason`), or a conversation backend in a new thread. */
export interface RestartRecord {
  readonly type: "restart";
  readonly step: number;
  readonly reason: string;
  /** A conversation backend's new thread offers these. */
  readonly tools?: readonly string[];
}

/** A summarized prompt section was expanded. */
export interface ExpandedRecord {
  readonly type: "expanded";
  readonly step: number;
  readonly section: string;
  readonly mode: "dynamic" | "restart";
  readonly tools: readonly string[];
}

/** A call waits for a person's decision (the run pauses). */
export interface ApprovalAskedRecord {
  readonly type: "approval-asked";
  readonly step: number;
  readonly id: string;
  readonly tool: string;
  readonly input?: unknown;
  readonly provider?: ProviderToolIdentity;
}

/** A resumed run received a decision on a waiting call. */
export interface ApprovalDecidedRecord {
  readonly type: "approval-decided";
  readonly step: number;
  readonly id: string;
  readonly tool: string;
  readonly approved: boolean;
  readonly reason?: string;
}

/** Something worth knowing: a backend's warning, a source's skipped tool, rejected output, the log's own trouble. */
export interface NoteRecord {
  readonly type: "note";
  readonly step: number;
  readonly kind: "model-warning" | "source" | "output-rejected" | "log";
  readonly message?: string;
}

/** The file reached its size limit: nothing but the end record follows. */
export interface CutRecord {
  readonly type: "cut";
  readonly step: number;
  readonly limitBytes: number;
  readonly note: string;
}

/** With pricing, just before the end: what each discovered provider added to the run's cost. */
export interface CostsRecord {
  readonly type: "costs";
  readonly step: number;
  readonly perProvider: readonly ProviderCost[];
}

/** The run ended. */
export interface EndRecord {
  readonly type: "end";
  readonly ms: number;
  readonly status: "completed" | "awaiting-approval" | "failed";
  /** Model calls of the run, a resumed run's earlier part included. */
  readonly totalIterations: number;
  /** Tokens of this run (a resumed run's earlier part not included). */
  readonly usage: TokenUsage;
  readonly error?: { readonly name: string; readonly message?: string };
  /** With pricing: what the run cost, USD (each step's is on its response; each provider's on `costs`). */
  readonly cost?: number;
}

/** Any line of a run log. */
export type RunLogRecord =
  | RunHeaderRecord
  | StepRecord
  | ResponseRecord
  | CallRecord
  | DiscoveredRecord
  | AddedRecord
  | RemovedRecord
  | RestartRecord
  | ExpandedRecord
  | ApprovalAskedRecord
  | ApprovalDecidedRecord
  | NoteRecord
  | CutRecord
  | CostsRecord
  | EndRecord;
