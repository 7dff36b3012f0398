import type { DynamicToolSource, SourceListing } from "./tool-source-port.js";
import { ToolSourceError } from "./tool-source-error.js";

/**
 * Opens and lists a source, every failure (a server that is down, not connected, or answers with an
 * error) a {@link ToolSourceError} naming it; the run's cancellation passes through as it is.
 */
export async function listSource(source: DynamicToolSource, signal?: AbortSignal): Promise<SourceListing> {
  try {
    await source.open();
    return await source.listTools(signal);
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new ToolSourceError(source.label, error instanceof Error ? error.message : String(error), error);
  }
}
