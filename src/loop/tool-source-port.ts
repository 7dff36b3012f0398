import type { AnyTool } from "../tools/tool.js";

/**
 * A source of tools outside the process whose set can change during a run (an MCP server). The run lists
 * it at the start, and again between steps after it announced a change, then injects or removes the
 * difference exactly as discovery does.
 */
export interface DynamicToolSource {
  /** A name for messages and events (`mcp:shop`). */
  readonly label: string;
  /** Gets ready (subscribes to change announcements); called once before a run lists it. */
  open(): Promise<void>;
  /** The source's tools now. */
  listTools(signal?: AbortSignal): Promise<readonly AnyTool[]>;
  /** Calls `listener` whenever the source announces that its tools changed; returns the unsubscribe. */
  watch(listener: () => void): () => void;
}
