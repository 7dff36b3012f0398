import type { ChildProcessWithoutNullStreams } from "node:child_process";
import { createInterface } from "node:readline";
import { EntityToolsError } from "../errors/entity-tools-error.js";

/** A failure talking to the app-server: a JSON-RPC error, a timeout, or the process going away. */
export class CodexAppServerError extends EntityToolsError {
  /** This class's name, written out so that a minified bundle keeps it. */
  static override readonly errorName: string = "CodexAppServerError";

  constructor(
    message: string,
    /** The last lines the process wrote to stderr, when it died. */
    readonly stderrTail: string = "",
  ) {
    super(message);
  }
}

type Message = {
  id?: number | string;
  method?: string;
  params?: unknown;
  result?: unknown;
  error?: { code?: number; message?: string };
};
type Pending = { resolve: (value: unknown) => void; reject: (error: Error) => void; timer: NodeJS.Timeout };

/** Handles a request the server sends us; its result (or thrown error) is the response. */
export type ServerRequestHandler = (method: string, params: unknown) => Promise<unknown>;

const STDERR_LINES = 20;

/**
 * Line-delimited JSON-RPC over a child's stdio, as the Codex app-server speaks it: our requests with
 * numeric ids and a timeout each, notifications both ways, and requests from the server answered by
 * `onRequest`. When the process exits, every pending request fails with what it last said on stderr.
 */
export class JsonRpcConnection {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private readonly stderr: string[] = [];
  private readonly notificationListeners = new Set<(method: string, params: unknown) => void>();
  private exitError: CodexAppServerError | undefined;
  onRequest: ServerRequestHandler = (method) =>
    Promise.reject(new Error(`unsupported server request ${method}`));

  constructor(private readonly child: ChildProcessWithoutNullStreams) {
    createInterface({ input: child.stdout }).on("line", (line) => this.receive(line));
    createInterface({ input: child.stderr }).on("line", (line) => {
      this.stderr.push(line);
      if (this.stderr.length > STDERR_LINES) this.stderr.shift();
    });
    child.on("exit", (code, signal) =>
      this.fail(
        new CodexAppServerError(
          `codex app-server exited (${signal ?? `code ${code}`})`,
          this.stderr.join("\n"),
        ),
      ),
    );
    child.on("error", (error) =>
      this.fail(new CodexAppServerError(`cannot run codex app-server: ${error.message}`)),
    );
  }

  /** The process is gone (or never started): every pending request and listener hears why, once. */
  private fail(error: CodexAppServerError): void {
    if (this.exitError) return;
    this.exitError = error;
    for (const [id, p] of this.pending) {
      clearTimeout(p.timer);
      p.reject(error);
      this.pending.delete(id);
    }
    for (const listener of this.notificationListeners) listener("$exit", error);
  }

  /** The last stderr lines, for error messages. */
  get stderrTail(): string {
    return this.stderr.join("\n");
  }

  request(method: string, params: unknown, timeoutMs: number): Promise<unknown> {
    if (this.exitError) return Promise.reject(this.exitError);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(
          new CodexAppServerError(
            `codex app-server did not answer ${method} within ${timeoutMs} ms`,
            this.stderrTail,
          ),
        );
      }, timeoutMs);
      this.pending.set(id, { resolve, reject, timer });
      this.write({ method, id, params });
    });
  }

  notify(method: string, params?: unknown): void {
    this.write(params === undefined ? { method } : { method, params });
  }

  /** Listens to notifications; `$exit` is delivered when the process ends. Returns the unsubscribe. */
  onNotification(listener: (method: string, params: unknown) => void): () => void {
    this.notificationListeners.add(listener);
    return () => this.notificationListeners.delete(listener);
  }

  private receive(line: string): void {
    let message: Message;
    try {
      message = JSON.parse(line) as Message;
    } catch {
      return; // not protocol output
    }
    if (message.method !== undefined && message.id !== undefined) {
      void this.answer(message.id, message.method, message.params);
    } else if (message.method !== undefined) {
      for (const listener of this.notificationListeners) listener(message.method, message.params);
    } else if (typeof message.id === "number") {
      const pending = this.pending.get(message.id);
      if (!pending) return;
      this.pending.delete(message.id);
      clearTimeout(pending.timer);
      if (message.error)
        pending.reject(
          new CodexAppServerError(
            `JSON-RPC error ${message.error.code ?? ""}: ${message.error.message ?? "unknown"}`.trim(),
          ),
        );
      else pending.resolve(message.result);
    }
  }

  private async answer(id: number | string, method: string, params: unknown): Promise<void> {
    try {
      this.write({ id, result: await this.onRequest(method, params) });
    } catch (error) {
      this.write({
        id,
        error: { code: -32000, message: error instanceof Error ? error.message : String(error) },
      });
    }
  }

  private write(message: object): void {
    if (this.exitError || !this.child.stdin.writable) return;
    this.child.stdin.write(`${JSON.stringify(message)}\n`);
  }
}
