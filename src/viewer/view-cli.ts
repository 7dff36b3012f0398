import { parseArgs } from "node:util";
import { writeHtmlExport } from "./html-export.js";
import { DEFAULT_VIEW_PORT, startViewServer } from "./view-server.js";

/** The `view` command's help. */
export const VIEW_USAGE = `Usage: entity-tools view <dir-or-file> [--html out.html] [--port N]

Shows run logs (written by runner.withRunLog(dir) or createMcpServer({ runLog })) in a local page: every
run of the folder, newest first, turns of a conversation together, each step's tools and what changed.

  <dir-or-file>  a run log folder, or one run's .jsonl file
  --html FILE    write one self-contained HTML file instead (no server, no network: for CI artifacts)
  --port N       the port to serve on, on 127.0.0.1 (default ${DEFAULT_VIEW_PORT}; a free one if it is taken)`;

/** Runs `entity-tools view …`; resolves with the exit code (a served viewer: when it is stopped). */
export async function viewMain(argv: readonly string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: {
        html: { type: "string" },
        port: { type: "string" },
        help: { type: "boolean", default: false },
      },
    });
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${VIEW_USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    console.log(VIEW_USAGE);
    return 0;
  }
  const port = values.port === undefined ? undefined : Number(values.port);
  if (
    positionals.length !== 1 ||
    (port !== undefined && !(Number.isInteger(port) && port >= 0 && port < 65536))
  ) {
    console.error(
      positionals.length !== 1
        ? `Give one folder or file.\n\n${VIEW_USAGE}`
        : `--port ${values.port}: not a port.`,
    );
    return 2;
  }
  const target = positionals[0]!;
  if (values.html !== undefined) {
    const runs = await writeHtmlExport(target, values.html);
    console.log(`wrote ${values.html} (${runs} run${runs === 1 ? "" : "s"})`);
    return 0;
  }
  const viewer = await startViewServer(target, port === undefined ? {} : { port });
  console.log(`entity-tools view: ${viewer.url} (Ctrl-C stops it)`);
  return new Promise<number>((resolve) => {
    const stop = () => void viewer.close().then(() => resolve(0));
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
  });
}
