// The run log's format (version 1): one JSON object per line, the run's header first. Plain types and two
// constants, read by the writer, the reader and the viewer's page alike (which runs in a browser: nothing
// here may import Node). docs/run-viewer.md describes it and docs/run-log.schema.json checks it.
//
// Invariants the writer keeps: the header is line 1; every record after it names the step it belongs to
// (0: before the run's first model call, as a resumed run's decided calls are); a step's tool set is written
// whole at step 1 and every `TOOL_SET_CHECKPOINT` steps, and as a change against the step before otherwise.
import type { ProviderCost } from "../events/run-cost.js";
import type { TokenUsage } from "../events/token-usage.js";
import type { ProviderIdentity } from "../tools/provider-identity.js";
import type { ApprovalAskedRecord, ApprovalDecidedRecord } from "./run-log-approval-records.js";
import type { RestartRecord } from "./run-log-restart-record.js";
import type { AddedRecord, RemovedRecord } from "./run-log-tool-set-records.js";
import type { MayHoldCutValues } from "./cut-value.js";

// In files of their own (the run log's format in four files); exported from here with the others.
export type { ApprovalAskedRecord, ApprovalDecidedRecord } from "./run-log-approval-records.js";
export type { RestartRecord } from "./run-log-restart-record.js";
export type { AddedRecord, RemovedRecord } from "./run-log-tool-set-records.js";

/** The `format` of a run log's header. */
export const RUN_LOG_FORMAT = "entity-tools/run-log";
/** The format version this package writes and reads. */
export const RUN_LOG_VERSION = 1;
/** A step's whole tool set is written at least this often (in steps), so a damaged line loses little. */
export const TOOL_SET_CHECKPOINT = 100;

/** How a logged run began: a prompt, a resume with decisions, a conversation's next turn, or MCP calls. */
export type RunLogKind = "run" | "resume" | "continue" | "mcp";

/** Line 1 of a run's file. */
export interface RunHeaderRecord extends MayHoldCutValues {
  /** `"run"`: the header, line 1. */ readonly type: "run";
  /** Always `"entity-tools/run-log"` (`RUN_LOG_FORMAT`): a reader skips a file of another format. */
  readonly format: typeof RUN_LOG_FORMAT;
  /** The format version the file is written in (`RUN_LOG_VERSION`); a reader skips another version's file. */
  readonly version: number;
  /** The file's id (its name without `.jsonl`): the time the run began and a random suffix. */
  readonly id: string;
  /** How the run began: a prompt, a resume with decisions, a conversation's next turn, or MCP calls. */
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
  /**
   * The stored conversation the run is a turn of (its `conversationId` option, else the one of the snapshot
   * it goes on from: `RunSnapshot.conversationId`); absent when it has none, and in files written before it.
   */
  readonly conversationId?: string;
  /** The messages the run starts with (its prompt, or a continued conversation's new messages). */
  readonly prompt?: unknown;
  /** The system prompt, when it is plain text. */
  readonly system?: string;
}

/** A model call is about to be made, with the tools offered to it. */
export interface StepRecord {
  /** `"step"`: a model call is about to be made. */ readonly type: "step";
  /** Steps of this file, numbered from 1. */
  readonly step: number;
  /**
   * The step's number in the run, as events number it (`ToolLoopIteration.iteration`): it goes on across
   * restarts and a resume, whose file's `step` starts at 1 again; an MCP server's: the call's number.
   */
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
export interface ResponseRecord extends MayHoldCutValues {
  /** `"response"`: the model answered. */ readonly type: "response";
  /** The step the model answered. */
  readonly step: number;
  /** Milliseconds since the run began, when the answer arrived. */
  readonly ms: number;
  /** How long the model call took, in ms, retries included. */
  readonly durationMs: number;
  /** The model the step asked for (a model given by id: the one it resolved to); absent when not named. */
  readonly modelId?: string;
  /** The id the response named, when not `modelId` (a dated snapshot: `gpt-5-2025-08-07`). */
  readonly responseModelId?: string;
  /** Tokens of this model call (0 where the provider reported none). */
  readonly usage: TokenUsage;
  /** USD, with pricing (`withPricing`); absent when the cost is unknown (`costUnknown`). */
  readonly cost?: number;
  /**
   * With pricing: the provider reported no input or no output tokens for the call, so its cost is unknown
   * (not 0) and the record has no `cost`.
   */
  readonly costUnknown?: true;
  /** The model's text; absent without `recordContent`. */
  readonly text?: string;
  /** The tools the model asked to call, in order (each call's `call` record holds its input). */
  readonly calls: readonly { readonly tool: string }[];
}

/** A media part of a call's result, written as a file beside the log. */
export interface MediaRecord {
  /** The part's kind: a picture, a sound or another file. */
  readonly type: "image" | "audio" | "file";
  /** Its IANA media type (`image/png`). */
  readonly mediaType: string;
  /** The file, relative to the log's folder (`<run id>.media/1.png`); absent when it was not written. */
  readonly file?: string;
  /** The part's URL, when the result named one instead of holding bytes. */
  readonly url?: string;
  /** The file name the tool gave the part, when it gave one. */
  readonly filename?: string;
  /** Why the file is missing (no content recorded, the size limit). */
  readonly skipped?: string;
}

/** A tool call ended: with a result, or with an error result the model read. */
export interface CallRecord extends MayHoldCutValues {
  /** `"call"`: a tool call ended. */ readonly type: "call";
  /** The step whose model response asked for the call (0: a resumed run's decided call). */
  readonly step: number;
  /** Milliseconds since the run began, when the call ended. */
  readonly ms: number;
  /** The call's id, as the model gave it: the `by` of the records its result caused. */
  readonly id: string;
  /** The tool called, by name. */
  readonly tool: string;
  /** True when the tool returned a result; false when the model read an error result instead. */
  readonly ok: boolean;
  /** Why it failed (see `ToolFailureReason`). */
  readonly reason?: string;
  /** How long the tool ran, in ms; absent for a failed call. */
  readonly durationMs?: number;
  /** The input the model gave; absent without `recordContent`. */
  readonly input?: unknown;
  /** The text the model read back (the error message, for a failed call). */
  readonly result?: string;
  /**
   * A failed call's cause, when the failure is the server's own and the model and the client read only
   * that it failed (an MCP server's strategy threw, an approval rule broke, or a `resolveProvider` threw:
   * `ToolFailedEvent.cause`): its name
   * and message (`Error: …`). Written with `recordContent` only: it may hold anything, a credential.
   */
  readonly cause?: string;
  /** The result's pictures, sounds and files; absent when it had none. */
  readonly media?: readonly MediaRecord[];
  /**
   * The provider the call is for: a discovered provider's tool's, or the one the call's handle names when
   * the handle is valid (one the run never found too); absent for a refused handle (see
   * `ToolInvokedEvent.provider`).
   */
  readonly provider?: ProviderIdentity;
}

/** A provider's tools were bound (per instance) or its handle made live (handles mode). */
export interface DiscoveredRecord {
  /** `"discovered"`: a provider was found. */ readonly type: "discovered";
  /** The step whose call returned the provider. */
  readonly step: number;
  /** The provider: its class's name and typed id. */
  readonly provider: ProviderIdentity;
  /** The call whose result returned it. */
  readonly by?: string;
  /** Per instance: the tools bound to it; handles mode: the class's tools its handle works with. */
  readonly tools: readonly string[];
  /** Per instance: the method each tool runs, by tool name. */
  readonly methods?: Readonly<Record<string, string>>;
  /** In handles mode: the provider's handle, as the model read it. */
  readonly handle?: string;
  /** An earlier instance with the same identity held these tools before. */
  readonly replaced?: boolean;
  /** Estimated tokens its tools' definitions add to every request that offers them. */
  readonly definitionTokens: number;
  /** Present when the tools reach the model in its provider's deferred form; absent: inline. */
  readonly delivery?: "deferred";
}

/** A summarized prompt section was expanded. */
export interface ExpandedRecord {
  /** `"expanded"`: a section was expanded. */ readonly type: "expanded";
  /** The step whose call read the section. */
  readonly step: number;
  /** The section's key. */
  readonly section: string;
  /**
   * `dynamic`: the read's tools joined the running conversation; `restart`: the run started again with
   * them; `content`: the read unlocked no tools, its text was all it changed (`VisibilityExpanded.mode`).
   */
  readonly mode: "dynamic" | "restart" | "content";
  /** The tools that came with this section, by name (`VisibilityExpanded.unlockedTools`). */
  readonly tools: readonly string[];
}

/** Something worth knowing: a backend's warning, a source's skipped tool, rejected output, the log's own trouble. */
export interface NoteRecord extends MayHoldCutValues {
  /** `"note"`: something worth knowing. */ readonly type: "note";
  /** The step it happened at. */
  readonly step: number;
  /** A backend's warning, a source's skipped or changed tool, rejected output, or a record not logged. */
  readonly kind: "model-warning" | "source" | "output-rejected" | "log";
  /** What happened, in words; absent for rejected output without `recordContent`. */
  readonly message?: string;
}

/** The file reached its size limit: nothing but the end record follows. */
export interface CutRecord {
  /** `"cut"`: the file reached its size limit. */ readonly type: "cut";
  /** The step at which the limit was reached. */
  readonly step: number;
  /** The size limit, in bytes (`maxFileBytes`, media included). */
  readonly limitBytes: number;
  /** A sentence saying the rest of the run is not logged. */
  readonly note: string;
}

/** With pricing, just before the end: what each discovered provider added to the run's cost. */
export interface CostsRecord {
  /** `"costs"`: each provider's cost. */ readonly type: "costs";
  /** The run's last step. */
  readonly step: number;
  /**
   * What each discovered provider's tools added to the whole run's cost, USD (see `ProviderCost`): the
   * result's `cost.perProvider`, so a resumed run's or a continued turn's file counts what the snapshot it
   * went on from carried too, and names the providers re-bound from it.
   */
  readonly perProvider: readonly ProviderCost[];
}

/** The run ended. */
export interface EndRecord extends MayHoldCutValues {
  /** `"end"`: the run ended; the last line. */ readonly type: "end";
  /** Milliseconds since the run began, when it ended. */
  readonly ms: number;
  /** How it ended: completed, paused until a person decides (`awaiting-approval`), or failed. */
  readonly status: "completed" | "awaiting-approval" | "failed";
  /** Model calls of the run, a resumed run's earlier part and a conversation's earlier turns included. */
  readonly totalIterations: number;
  /** This file's steps (its last `step` record's `step`); absent in files written before it was recorded. */
  readonly steps?: number;
  /** Tokens of this run (a resumed run's earlier part not included). */
  readonly usage: TokenUsage;
  /** A failed run's error: its class's name, and its message with `recordContent`. */
  readonly error?: { readonly name: string; readonly message?: string };
  /**
   * With pricing: what this file's model calls cost, USD, the sum of its `response` records' (as `usage` is
   * this file's): a resumed run's file leaves out the paused part, whose own file has it. The whole run's
   * cost is the result's `cost.total`; each provider's share of it is on `costs`.
   */
  readonly cost?: number;
  /** With pricing: a `response` record's cost is unknown (`costUnknown`), so `cost` leaves it out. */
  readonly costUnknown?: true;
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
