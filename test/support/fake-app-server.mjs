// A stand-in for `codex app-server` speaking just enough of its line-delimited JSON-RPC to test the client:
// handshake, thread/start, turn/start with scripted item/tool/call requests, turn/interrupt, and failures.
// The script comes from FAKE_APP_SERVER (JSON): { mode, toolCalls: [{ tool, arguments }], answer, usage, model }.
import { writeFileSync } from "node:fs";
import { createInterface } from "node:readline";

const script = JSON.parse(process.env.FAKE_APP_SERVER ?? "{}");
if (script.pidFile) writeFileSync(script.pidFile, String(process.pid));
const mode = script.mode ?? "ok";
const send = (message) => process.stdout.write(`${JSON.stringify(message)}\n`);
const waiting = new Map();
let nextId = 1000;
let interrupted = false;
let turns = 0;
const threadId = "thread-1";
const turnId = "turn-1";

const ask = (method, params) =>
  new Promise((resolve) => {
    const id = nextId++;
    waiting.set(id, resolve);
    send({ method, id, params });
  });

async function runTurn() {
  const outputs = [];
  for (const [i, call] of (script.toolCalls ?? []).entries()) {
    if (interrupted) break;
    if (mode === "die-on-turn") process.exit(3);
    const response = await ask("item/tool/call", {
      threadId,
      turnId,
      callId: `call-${i}`,
      namespace: null,
      tool: call.tool,
      arguments: call.arguments ?? {},
    });
    outputs.push(response.result ?? { error: response.error });
  }
  if (interrupted) return;
  if (mode === "turn-failed") {
    send({
      method: "turn/completed",
      params: {
        threadId,
        turn: { id: turnId, status: "failed", error: { message: "model provider returned 500" }, items: [] },
      },
    });
    return;
  }
  if (script.usage) {
    // Codex reports the thread's running totals after each model response.
    turns++;
    const total = {
      inputTokens: script.usage.inputTokens * turns,
      outputTokens: script.usage.outputTokens * turns,
    };
    send({
      method: "thread/tokenUsage/updated",
      params: { threadId, turnId, tokenUsage: { total, last: script.usage } },
    });
  }
  const text = `${script.answer ?? "done"} ${JSON.stringify(outputs)}`;
  send({
    method: "item/completed",
    params: { threadId, turnId, item: { type: "agentMessage", id: "msg-1", text } },
  });
  send({
    method: "turn/completed",
    params: { threadId, turn: { id: turnId, status: "completed", error: null, items: [] } },
  });
}

createInterface({ input: process.stdin }).on("line", (line) => {
  const message = JSON.parse(line);
  if (message.method === undefined) {
    waiting.get(message.id)?.(message);
    waiting.delete(message.id);
    return;
  }
  process.stderr.write(`fake app-server got ${message.method}\n`);
  switch (message.method) {
    case "initialize":
      if (mode === "die-on-initialize") process.exit(2);
      return send({
        id: message.id,
        result: { userAgent: "fake", codexHome: "/tmp", platformFamily: "unix", platformOs: "linux" },
      });
    case "thread/start":
      if (mode === "silent") return;
      if (mode === "error-on-thread-start")
        return send({ id: message.id, error: { code: -32602, message: "invalid dynamicTools" } });
      process.stderr.write(`dynamicTools ${JSON.stringify(message.params.dynamicTools)}\n`);
      // Codex names the thread's model here; the script's, when it gives one.
      return send({
        id: message.id,
        result: { thread: { id: threadId }, ...(script.model ? { model: script.model } : {}) },
      });
    case "turn/start":
      send({ id: message.id, result: { turn: { id: turnId, status: "inProgress", items: [] } } });
      if (mode !== "hang-turn") void runTurn();
      return;
    case "turn/interrupt":
      interrupted = true;
      send({ id: message.id, result: {} });
      return send({
        method: "turn/completed",
        params: { threadId, turn: { id: turnId, status: "interrupted", error: null, items: [] } },
      });
    default:
      return;
  }
});
