// A chat page over a streamed run: POST /api/chat streams the run in the AI SDK's UI message stream
// protocol (what useChat reads); the page (index.html, no build step) shows the text as it comes and
// each tool as it is called, discovered ones included.
//   node --import tsx examples/web-chat/server.ts [port]     then open http://127.0.0.1:3000
// Offline (no OPENAI_API_KEY / OPENAI_BASE_URL) a scripted model plays the customer-spend conversation.
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { pathToFileURL } from "node:url";
import { PromptRunner } from "entity-tools";
import { customerSpend } from "../customer-spend/agent.js";
import { chooseModel } from "../demo/choose-model.js";

const page = readFileSync(new URL("./index.html", import.meta.url), "utf8");

/** Starts the chat server on 127.0.0.1; each question is one streamed run with a fresh runner. */
export async function startWebChat(port: number): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    if (req.method === "GET" && (req.url === "/" || req.url === "/index.html")) {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(page);
      return;
    }
    if (req.method === "POST" && req.url === "/api/chat") {
      let body = "";
      req.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
      req.on("end", () => {
        const { question } = JSON.parse(body || "{}") as { question?: string };
        const { model } = chooseModel(process.env, undefined, customerSpend);
        const runner = customerSpend.configure(new PromptRunner({ model }));
        runner.stream(question || customerSpend.question).pipeUIMessageStreamToResponse(res);
      });
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const { url } = await startWebChat(Number(process.argv[2] ?? 3000));
  console.log(`entity-tools web chat on ${url}`);
}
