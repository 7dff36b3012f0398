// A multi-turn chat over streamed runs: POST /api/chat takes useChat's own request body ({ id, messages,
// trigger }), continues the stored conversation `id` with the last user message (tools found in earlier
// turns stay bound), or, when the last message is the assistant's with approval responses (useChat's
// addToolApprovalResponse), resumes the paused run; the reply streams in the AI SDK UI message protocol.
// Conversations live in a FileConversationStore (default ~/.entity-tools/web-chat, yours only), so they
// survive a restart of the server; with --store postgres://… in PostgreSQL, so several server processes
// can serve one conversation. It answers only requests for localhost, 127.0.0.1 and [::1] (and the
// --allowed-host names), so a page of another site cannot drive it (DNS rebinding, cross-site requests).
//   node --import tsx examples/web-chat/server.ts [port] [--model id] [--store dir | postgres://…]
//     [--lease-ms ms] [--max-snapshot-bytes n] [--host address --allowed-host name…]   then open the page
// Offline (no OPENAI_API_KEY / OPENAI_BASE_URL) a model that reads the conversation plays the chat;
// OPENAI_BASE_URL (any OpenAI-compatible server) needs --model (or OPENAI_MODEL).
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { homedir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { pathToFileURL } from "node:url";
import { pipeUIMessageStreamToResponse, type UIMessage, type UIMessageChunk } from "ai";
import {
  ConversationConflictError,
  ConversationStoreUnavailableError,
  ConversationTooLargeError,
  FileConversationStore,
  InvalidConversationIdError,
  PromptRunner,
  ToolLoopError,
  beginConversationTurn,
  type ApprovalDecision,
  type ConversationStore,
  type RunStream,
} from "entity-tools";
import { localRequestGuard } from "entity-tools/building-blocks";
import { PostgresConversationStore } from "entity-tools/postgres";
import { chooseModel } from "../demo/choose-model.js";
import { chatAgent, resolveCustomer } from "./chat-agent.js";

const page = readFileSync(new URL("./index.html", import.meta.url), "utf8");
const MAX_BODY_BYTES = 1_000_000;
/** The page's ids are UUIDs; useChat's own are shorter: letters, digits, - and _ only, never a path. */
const CONVERSATION_ID = /^[A-Za-z0-9_-]{1,100}$/;

/** Where the server keeps conversations and which model it talks to. */
export interface WebChatOptions {
  /** Default: files in {@link defaultStoreDirectory} (folders 0700, files 0600). */
  readonly store?: ConversationStore;
  /** The model name (required with OPENAI_BASE_URL). */
  readonly modelId?: string;
  /** Where OPENAI_BASE_URL / OPENAI_API_KEY / OPENAI_MODEL / SNAPSHOT_KEY / HOME are read. Default: process.env. */
  readonly env?: NodeJS.ProcessEnv;
  /** How long a turn's claim lasts unless renewed (beginConversationTurn's leaseMs). */
  readonly turnLeaseMs?: number;
  /** The address to listen on. Default 127.0.0.1 (this machine only). */
  readonly host?: string;
  /**
   * The names the server answers besides localhost, 127.0.0.1 and [::1] (`localRequestGuard`): those you
   * open it by when it listens on another interface on purpose (`host: "0.0.0.0"`).
   */
  readonly allowedHosts?: readonly string[];
}

/** Where the chat keeps conversations by default: ~/.entity-tools/web-chat (never the shared /tmp). */
export function defaultStoreDirectory(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(env.HOME || homedir(), ".entity-tools", "web-chat");
}

/** A request the server answers with an HTTP error (and the reason as JSON), not a stream. */
class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** Starts the chat server (on 127.0.0.1 unless `host` says otherwise). */
export async function startWebChat(
  port: number,
  options: WebChatOptions = {},
): Promise<{ url: string; server: Server }> {
  const env = options.env ?? process.env;
  const store = options.store ?? new FileConversationStore(defaultStoreDirectory(env));
  const host = options.host ?? "127.0.0.1";
  const guard = localRequestGuard({ allowedHosts: options.allowedHosts });
  // A runner per request (offline: a fresh script). Made once now, so a server that cannot reach its
  // model (OPENAI_BASE_URL without a model name) fails at start, not at the first request.
  const runnerFor = () => {
    const { model } = chooseModel(env, options.modelId ?? env.OPENAI_MODEL, chatAgent);
    const runner = chatAgent.configure(new PromptRunner({ model }));
    return env.SNAPSHOT_KEY ? runner.withSnapshotKey(env.SNAPSHOT_KEY) : runner;
  };
  runnerFor();

  const server = createServer((req, res) => {
    if (!guard(req, res)) return; // a foreign Host or Origin: 403
    if (req.method === "GET" && (req.url === "/" || req.url === "/index.html")) {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(page);
      return;
    }
    if (req.method === "POST" && req.url === "/api/chat") {
      chat(req, res, store, runnerFor(), options.turnLeaseMs).catch((error: unknown) => fail(res, error));
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(port, host, resolve));
  const shown = host === "0.0.0.0" || host === "::" ? "127.0.0.1" : host.includes(":") ? `[${host}]` : host;
  return { url: `http://${shown}:${(server.address() as AddressInfo).port}`, server };
}

/** One chat request: a turn of the conversation the body names, streamed back. */
async function chat(
  req: IncomingMessage,
  res: ServerResponse,
  store: ConversationStore,
  runner: PromptRunner,
  leaseMs: number | undefined,
): Promise<void> {
  // The page went away (closed, navigated, stopped): the run stops with it.
  const abort = new AbortController();
  res.on("close", () => {
    if (!res.writableFinished) abort.abort(new Error("the page went away"));
  });
  const body = await readJson(req);
  const { id, messages } = chatRequest(body);
  const last = messages.at(-1);
  const text = last?.role === "assistant" ? "" : last ? textOf(last) : "";
  if (last?.role !== "assistant" && !text) throw new HttpError(400, "The last message has no text.");
  const turn = await beginConversationTurn(store, id, { leaseMs });
  const common = { resolveProvider: resolveCustomer, signal: abort.signal, conversationId: id };
  let stream: RunStream<string>;
  try {
    if (last?.role === "assistant") {
      const approvals = approvalsIn(last);
      // Every call that waits: its message's (`paused.calls`), and other messages' on a backend that runs a
      // response's calls at once (Codex: `paused.more`).
      const paused = turn.snapshot?.paused;
      const waiting = new Set(
        [paused?.calls ?? [], ...(paused?.more ?? []).map((g) => g.calls)].flat().map((c) => c.toolCallId),
      );
      if (Object.keys(approvals).length === 0 || !Object.keys(approvals).every((a) => waiting.has(a)))
        throw new HttpError(
          409,
          "Nothing in this conversation waits for these decisions (already decided?).",
        );
      stream = runner.resumeStream(turn.snapshot!, { ...common, approvals });
    } else {
      stream = runner.stream(text, { ...common, continueFrom: turn.snapshot });
    }
  } catch (error) {
    await turn.release(); // nothing ran: the conversation is free again (a live turn's claim is renewed)
    throw error;
  }
  // The turn is saved (a failed run's snapshot too: it can go on) before the response ends, so the
  // page's next request finds it.
  const saved = stream.result
    .then(
      (run) => run.snapshot,
      (error: unknown) => {
        // The page reads a masked error (the AI SDK's default text); the operator needs the cause.
        if (!abort.signal.aborted) console.error(`web-chat: a turn of conversation ${id} failed:`, error);
        return ToolLoopError.isInstance(error) ? error.snapshot : undefined;
      },
    )
    .then((snapshot) => (snapshot ? turn.save(snapshot) : turn.release()))
    .catch((error: unknown) => {
      console.error(`web-chat: conversation ${id}: the turn was not saved:`, (error as Error).message);
      throw error;
    });
  saved.catch(() => {}); // read at the end of the stream (below); never an unhandled rejection before then
  const ui = stream.toUIMessageStream({ originalMessages: messages }).pipeThrough(
    new TransformStream<UIMessageChunk, UIMessageChunk>({
      flush: async (controller) => {
        await saved.catch((error: unknown) =>
          controller.enqueue({
            type: "error",
            errorText: `This turn was not saved: ${(error as Error).message}`,
          }),
        );
      },
    }),
  );
  pipeUIMessageStreamToResponse({ response: res, stream: ui });
}

/** useChat's request body ({ id, messages }), or the page's older `{ question }` (a new conversation). */
function chatRequest(body: unknown): { id: string; messages: UIMessage[] } {
  if (typeof body !== "object" || body === null) throw new HttpError(400, "The body must be a JSON object.");
  const { id, messages, question } = body as { id?: unknown; messages?: unknown; question?: unknown };
  if (typeof question === "string")
    return {
      id: randomUUID(),
      messages: [{ id: "q", role: "user", parts: [{ type: "text", text: question }] }],
    };
  if (typeof id !== "string" || !Array.isArray(messages) || messages.length === 0)
    throw new HttpError(400, "Expected useChat's body: { id, messages: [...] }.");
  if (!CONVERSATION_ID.test(id))
    throw new HttpError(
      400,
      "The conversation id must be 1 to 100 letters, digits, - or _ (the page sends a UUID).",
    );
  return { id, messages: messages as UIMessage[] };
}

function textOf(message: UIMessage): string {
  return (message.parts ?? []).flatMap((p) => (p.type === "text" ? [p.text] : [])).join("\n");
}

/** The decisions of an assistant message's tool parts in `approval-responded`, by approval id. */
function approvalsIn(message: UIMessage): Record<string, ApprovalDecision> {
  const decisions: Record<string, ApprovalDecision> = {};
  for (const part of message.parts ?? []) {
    if (!("state" in part) || part.state !== "approval-responded") continue;
    const { id, approved, reason } = part.approval;
    decisions[id] = approved ? { approved: true } : { approved: false, reason };
  }
  return decisions;
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw new HttpError(413, "The body is too large.");
    chunks.push(chunk);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString("utf8")) as unknown;
  } catch {
    throw new HttpError(400, "The body is not JSON.");
  }
}

function fail(res: ServerResponse, error: unknown): void {
  const status =
    error instanceof HttpError
      ? error.status
      : ConversationConflictError.isInstance(error)
        ? 409
        : InvalidConversationIdError.isInstance(error)
          ? 400
          : ConversationTooLargeError.isInstance(error) // over --max-snapshot-bytes: start a new one
            ? 413
            : ConversationStoreUnavailableError.isInstance(error)
              ? 503
              : 500;
  if (status >= 500) console.error(error);
  const message = status === 500 ? "Internal error" : (error as Error).message;
  // A turn in progress: when to try again, as the error says (whole seconds, rounded up).
  const retry = ConversationConflictError.isInstance(error)
    ? { "retry-after": String(Math.ceil(error.retryAfterMs / 1000)) }
    : {};
  if (!res.headersSent) res.writeHead(status, { "content-type": "application/json", ...retry });
  res.end(JSON.stringify({ error: message }));
}

/** `--store`: a postgres:// URL (PostgreSQL) or a directory (files). */
export function storeFrom(
  where: string | undefined,
  maxSnapshotBytes: number | undefined,
): ConversationStore | undefined {
  if (where === undefined) return undefined;
  return /^postgres(ql)?:\/\//.test(where)
    ? new PostgresConversationStore({ connectionString: where, maxSnapshotBytes })
    : new FileConversationStore(where, { maxSnapshotBytes });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      model: { type: "string" },
      data: { type: "string" },
      store: { type: "string" },
      "lease-ms": { type: "string" },
      "max-snapshot-bytes": { type: "string" },
      host: { type: "string" },
      "allowed-host": { type: "string", multiple: true },
    },
  });
  const number = (text: string | undefined) => (text === undefined ? undefined : Number(text));
  const store = storeFrom(values.store ?? values.data, number(values["max-snapshot-bytes"]));
  const { url } = await startWebChat(Number(positionals[0] ?? 3000), {
    modelId: values.model,
    store,
    turnLeaseMs: number(values["lease-ms"]),
    host: values.host,
    allowedHosts: values["allowed-host"],
  });
  console.log(`entity-tools web chat on ${url}`);
}
