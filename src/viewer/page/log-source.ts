// Where the page reads the logs from: the viewer server's API (live: it says when the folder changed), or
// the data an exported file carries inside it (fixed). Both give the same text to the same parser.
import { listedHeader } from "../../run-log/listed-header.js";
import { isEndLine, RunTally, type RunSoFar } from "../../run-log/run-tally.js";
import type { FileRead, ReadRequest } from "./read-position.js";

/** One run file as the run list needs it. */
export interface LogEntry {
  readonly name: string;
  readonly size: number;
  /** The file's state when it was read (size, times, inode): another one at the same size is a rewrite. */
  readonly stamp: string;
  /** Its header's fields that say which run it is, not its content (listed-header.ts), */
  readonly head: string;
  /** a fingerprint of its first line (another one: another run in its place; empty: not known), */
  readonly headHash: string;
  /** and its last whole line when that is its end record (else empty). */
  readonly tail: string;
  /** When the file was last written (ms since 1970); absent in an exported page. */
  readonly modifiedMs?: number;
  /** For a run with no end record: its steps, tokens and cost so far. */
  readonly soFar?: RunSoFar;
  /** For a run with no end record: whether nothing was written to it for a while; absent in an exported page. */
  readonly quiet?: boolean;
}

/** The page's access to the logs. */
export interface LogSource {
  /** The folder or file shown. */
  readonly label: string;
  readonly live: boolean;
  /** The run files; undefined when the server cannot be reached (it stopped, the machine slept). */
  list(): Promise<LogEntry[] | undefined>;
  /**
   * A file's text from byte `from` to its end (from its start when it no longer holds what `request.check`
   * was made of), and where the next read starts (after its last newline).
   */
  read(name: string, request: ReadRequest): Promise<FileRead>;
  /** Where the page finds a media file (`<run>.media/1.png`); undefined when it is not there. */
  mediaUrl(file: string): string | undefined;
  /**
   * Calls `changed` whenever the folder changed (a live source), and `connected` when the link to the
   * server is lost (false: the viewer stopped, or the machine slept) and when it is back (true, after a
   * `changed`: what changed meanwhile is read).
   */
  watch(changed: () => void, connected: (up: boolean) => void): void;
}

interface InlineData {
  readonly source: string;
  readonly files: readonly { readonly name: string; readonly text: string }[];
  readonly media: Readonly<Record<string, string>>;
}

/** The logs an exported page holds (`<script id="run-log-data">`), or undefined for a served page. */
export function inlineSource(): LogSource | undefined {
  const element = document.getElementById("run-log-data");
  if (!element?.textContent) return undefined;
  const data = JSON.parse(element.textContent) as InlineData;
  const files = new Map(data.files.map((f) => [f.name, f.text]));
  return {
    label: data.source,
    live: false,
    list: () =>
      Promise.resolve(
        data.files.map(({ name, text }) => {
          const lines = text.trimEnd().split("\n");
          const last = lines.length > 1 ? lines.at(-1)! : "";
          const ended = isEndLine(last);
          let soFar: RunSoFar | undefined;
          if (!ended) {
            const tally = new RunTally();
            tally.addLines(text.slice(0, text.lastIndexOf("\n") + 1));
            soFar = tally.soFar;
          }
          return {
            name,
            size: text.length,
            // An exported page never changes: no stamp, no fingerprint to compare.
            stamp: "",
            head: listedHeader(lines[0] ?? "", true),
            headHash: "",
            tail: ended ? last : "",
            ...(soFar ? { soFar } : {}),
          };
        }),
      ),
    // The whole text at the first read; an exported page never changes, so there is nothing after it.
    read: (name, { from }) => {
      const text = from === 0 ? (files.get(name) ?? "") : "";
      return Promise.resolve({
        text,
        from,
        next: from + text.length,
        check: "",
        settled: true,
        headHash: "",
      });
    },
    mediaUrl: (file) => data.media[file],
    watch: () => undefined,
  };
}

/** The viewer server's API, with its change events (and a slow poll when the event stream is down). */
export function servedSource(): LogSource {
  let label = "";
  return {
    get label() {
      return label;
    },
    live: true,
    async list() {
      let response: Response;
      try {
        response = await fetch("api/runs");
      } catch {
        return undefined; // no answer: the page keeps what it shows (watch says it is not connected)
      }
      const body = (await response.json()) as { source: string; files: LogEntry[] };
      label = body.source;
      return body.files;
    },
    async read(name, { from, check, whole }) {
      const query = new URLSearchParams({ name, from: String(from) });
      if (check !== undefined) query.set("check", check);
      if (whole) query.set("whole", "1");
      const response = await fetch(`api/file?${query.toString()}`);
      if (!response.ok)
        return { text: "", from, next: from, check: check ?? "", settled: true, headHash: "" };
      const header = (name: string) => response.headers.get(name);
      return {
        text: await response.text(),
        from: Number(header("X-From-Offset") ?? from),
        next: Number(header("X-Next-Offset") ?? from),
        check: header("X-Check") ?? "",
        settled: header("X-Settled") !== "false",
        headHash: header("X-Head-Hash") ?? "",
      };
    },
    mediaUrl: (file) => `media/${file.split("/").map(encodeURIComponent).join("/")}`,
    watch(changed, connected) {
      const events = new EventSource("api/events");
      events.onmessage = () => changed();
      let lost = false;
      events.onerror = () => {
        lost = true;
        connected(false);
      };
      events.onopen = () => {
        if (!lost) return;
        lost = false;
        changed();
        connected(true);
      };
      setInterval(() => {
        if (events.readyState !== EventSource.OPEN) changed();
      }, 5_000);
    },
  };
}
