/**
 * Chunks written into a stream that does not wait for its reader (the AI SDK's `createUIMessageStream`
 * queues whatever its `execute` writes) against the chunks its reader took: `ready` holds the writer
 * while it is `limit` chunks ahead, so a slow reader (a client on a slow connection) holds the run back
 * rather than a queue growing. `close` (the reader went away) lets the writer go on, to its end.
 */
export class ChunkGate {
  private ahead = 0;
  private closed = false;
  private waiting: (() => void)[] = [];

  constructor(private readonly limit: number) {}

  written(): void {
    this.ahead++;
  }

  taken(): void {
    this.ahead--;
    if (this.ahead < this.limit) this.release();
  }

  /** Resolves once the reader is fewer than `limit` chunks behind; `undefined` when it already is. */
  ready(): Promise<void> | undefined {
    if (this.closed || this.ahead < this.limit) return undefined;
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  close(): void {
    this.closed = true;
    this.release();
  }

  private release(): void {
    const waiting = this.waiting;
    this.waiting = [];
    for (const resolve of waiting) resolve();
  }
}
