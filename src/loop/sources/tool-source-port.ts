import type { AnyTool } from "../../tools/tool.js";

/** A tool a source offered that the run does not offer the model, and why (named in messages and events). */
export interface SkippedSourceTool {
  /** The tool's name as the source lists it. */
  readonly toolName: string;
  /** Why it is not offered, in words (an unusable schema, a name already taken). */
  readonly reason: string;
}

/** What a source offers now: the usable tools, and those it listed that cannot be used. */
export interface SourceListing {
  /** The tools the run may offer, under the names the model sees. */
  readonly tools: readonly AnyTool[];
  /** The tools listed that cannot be used, and why. */
  readonly skipped: readonly SkippedSourceTool[];
}

/**
 * A source of tools outside the process whose set can change during a run (an MCP server). The run lists
 * it at the start, and again between steps after it announced a change or its list expired, then injects
 * or removes the difference exactly as discovery does.
 */
export interface DynamicToolSource {
  /** A name for messages and events (`mcp:shop`). */
  readonly label: string;
  /** Gets ready (subscribes to change announcements); called before a run lists it. */
  open(): Promise<void>;
  /** The source's tools now. */
  listTools(signal?: AbortSignal): Promise<SourceListing>;
  /** Calls `listener` whenever the source announces that its tools changed; returns the unsubscribe. */
  watch(listener: () => void): () => void;
  /** Whether the last listing is past the time the source said it stays valid (re-listed between steps). */
  expired?(): boolean;
}
