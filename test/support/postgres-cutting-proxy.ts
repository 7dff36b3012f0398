// A TCP proxy in front of a PostgreSQL server that can lose one answer: armed, it passes the next
// statement holding a given text on and, once the server has committed it (its ReadyForQuery), cuts that client's connection
// instead of passing the answer back. What a network that drops at the wrong moment does: the write
// landed, the client heard nothing. Driven by what crosses the wire, never by time.
import { createServer, connect, type Server, type Socket } from "node:net";

/** The proxy: its port, `cutNextAnswer(text)` to lose an answer, and `close()`. */
export interface CuttingProxy {
  readonly port: number;
  /** The next statement holding `text` runs; its answer is lost and that client's connection cut. */
  cutNextAnswer(text: string): void;
  close(): Promise<void>;
}

/** Starts a proxy on 127.0.0.1 (a free port) to the server on `targetPort`. */
export async function startCuttingProxy(targetPort: number): Promise<CuttingProxy> {
  let armed: string | undefined;
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = connect(targetPort, "127.0.0.1");
    sockets.add(client).add(upstream);
    let cutting = false;
    let answer = Buffer.alloc(0);
    client.on("data", (chunk: Buffer) => {
      if (armed !== undefined && chunk.includes(armed)) [armed, cutting] = [undefined, true];
      upstream.write(chunk);
    });
    upstream.on("data", (chunk: Buffer) => {
      if (!cutting) return void client.write(chunk);
      // Backend messages: a type byte, then a length that counts itself. 'Z' (ReadyForQuery) comes after
      // the commit: cut there.
      answer = Buffer.concat([answer, chunk]);
      while (answer.length >= 5 && answer.length >= 1 + answer.readInt32BE(1)) {
        if (answer[0] === "Z".charCodeAt(0)) return void client.destroy();
        answer = answer.subarray(1 + answer.readInt32BE(1));
      }
    });
    for (const [a, b] of [
      [client, upstream],
      [upstream, client],
    ] as const) {
      a.on("close", () => b.destroy());
      a.on("error", () => {});
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as { port: number }).port,
    cutNextAnswer: (text) => void (armed = text),
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
