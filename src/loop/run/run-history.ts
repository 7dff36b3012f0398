import type { ModelMessage } from "ai";

/**
 * The history arrays of running runs. A run's history is written only by its `RunSession`, which only appends
 * to it (the README: a run's history must not be edited while it runs; strategies get it read-only), so a
 * consumer that remembers what it saw of such an array (the converted-prompt cache) can tell what was added
 * from the length alone, without walking the messages it already saw.
 */
const appendOnly = new WeakSet<readonly ModelMessage[]>();

/** Records that `history` is a run's own history, appended to only. */
export function markRunHistory(history: readonly ModelMessage[]): void {
  appendOnly.add(history);
}

/** Whether `history` is a run's own history (see `markRunHistory`); any other array may be edited anywhere. */
export function isRunHistory(history: readonly ModelMessage[]): boolean {
  return appendOnly.has(history);
}
