// The tool calls a conversation backend (Codex, Claude Code) waits for the run to answer, so that a turn
// that runs out of time says what it waited on. The turn's time limit counts these waits, a slow reader's
// included: the run answers a call once the tool has run and, in a streamed run, once its reader is fewer
// than 64 parts behind; a reader that stopped must not hold the backend, and the run, for ever.

/** The calls of one conversation that the run has not answered yet, each since when. */
export class UnansweredCalls {
  private readonly since = new Map<symbol, { readonly toolName: string; readonly at: number }>();

  /** `answer`'s result, the call of `toolName` counted as unanswered until it settles. */
  async answer<T>(toolName: string, answer: () => Promise<T>): Promise<T> {
    const key = Symbol(toolName);
    this.since.set(key, { toolName, at: Date.now() });
    try {
      return await answer();
    } finally {
      this.since.delete(key);
    }
  }

  /**
   * What a turn over its time limit waited on, when a call was still unanswered (the oldest), as the
   * end of a sentence that reads `The … turn did not complete within … ms`; `undefined` when none was.
   */
  waitedOn(): string | undefined {
    const oldest = this.since.values().next();
    if (oldest.done) return undefined;
    const { toolName, at } = oldest.value;
    return `: it was waiting ${Date.now() - at} ms for the run to answer its call of "${toolName}" (the run answers a call once the tool has run and, in a streamed run, once the reader of stream() is fewer than 64 parts behind). Read the stream as it comes, or raise turnTimeoutMs.`;
  }
}
