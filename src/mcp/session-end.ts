// When a 2025-11-25 session's run log ends. Closing a session (its client left, or ended it with an HTTP
// DELETE) aborts the calls still running, and each ends after the close: its record belongs in the file
// before the session's `end`, not after it (the viewer reads records in order, and stops at the end).

/** Ends a session once it closed and none of its calls still runs. */
export class SessionEnd {
  private running = 0;
  private closed = false;

  constructor(private readonly end: () => void) {}

  /** Runs one call of the session, which the session's end waits for. */
  async during<T>(call: () => Promise<T>): Promise<T> {
    this.running++;
    try {
      return await call();
    } finally {
      this.running--;
      if (this.closed && this.running === 0) this.end();
    }
  }

  /** The session closed: it ends now, or when the last of its running calls has ended. */
  close(): void {
    this.closed = true;
    if (this.running === 0) this.end();
  }
}
