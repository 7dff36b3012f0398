// The run open on the page: what has been read of its file and its panel. A run still going is read from
// where the last read ended and only what it gained is parsed (GrowingRunLog); its view is made again from
// all its records, and its panel keeps what did not change (the focus, a typed filter, the scroll position).
// A file that no longer holds what was read of it (it shrank, was replaced or rewritten: read-position.ts)
// is read again from its start, into the same panel unless it is another run (another first line).
import { GrowingRunLog } from "../../run-log/read-run-log.js";
import { runView, type RunView } from "../../run-log/run-log-steps.js";
import { h } from "./dom.js";
import type { LogEntry, LogSource } from "./log-source.js";
import { ReadPosition, type FileState } from "./read-position.js";
import { runPanel, type RunListing, type RunPanel, type RunPanelState } from "./run-panel.js";

/** What the run list says of the open run's file. */
export type ListedFile = FileState & Pick<LogEntry, "quiet" | "modifiedMs">;

/** Counts the bytes of the text a read ends with (the page says how much of the file it shows). */
const utf8 = new TextEncoder();

/** The run open in `box`, read from `source`. */
export class OpenRun {
  private log = new GrowingRunLog();
  private readonly position = new ReadPosition();
  private panel: RunPanel | undefined;
  private state: RunPanelState = { page: 0, open: new Set() };
  private loading = Promise.resolve();
  private closed = false;
  /** Whether the run had gone quiet when last shown (the list says so of a run with no end record). */
  private quiet: boolean | undefined;

  constructor(
    readonly name: string,
    private readonly source: LogSource,
    private readonly box: HTMLElement,
    /** Called with the run as shown, and how many bytes of its file are on the page. */
    private readonly shown: (view: RunView, bytes: number) => void,
  ) {}

  /**
   * Whether the page may not show the run as it is: its file changed, or was read while changing, or the
   * run went quiet (or was written again) since.
   */
  changed(file: ListedFile): boolean {
    return this.position.changed(file) || file.quiet !== this.quiet;
  }

  /**
   * Reads what the file gained since the last read and shows the run as it is now (turn `turn` of its
   * conversation). One read at a time: two reads from the same offset would add the same lines twice.
   */
  load(file: ListedFile, turn: number | undefined): Promise<void> {
    this.loading = this.loading
      .then(() => this.loadNow(file, turn))
      .catch((error: unknown) => {
        if (!this.closed)
          this.box.replaceChildren(
            h("p", { className: "error" }, `Could not read the run: ${String(error)}`),
          );
      });
    return this.loading;
  }

  /** Another run was opened: a read under way shows nothing. */
  close(): void {
    this.closed = true;
  }

  private async loadNow(file: ListedFile, turn: number | undefined): Promise<void> {
    const read = await this.source.read(this.name, this.position.request(file));
    if (this.closed) return;
    if (read.from === 0) this.log = new GrowingRunLog();
    if (this.position.took(read, file)) {
      // Another run in this file's place: its own panel, from its first page.
      this.panel = undefined;
      this.state = { page: 0, open: new Set() };
    }
    // A last line without its newline (being written, or cut short by a crash) is read with the rest,
    // and again, whole, with the next read.
    this.log.append(read.text);
    const view = runView(this.log.read());
    this.quiet = file.quiet;
    const listing: RunListing = { quiet: file.quiet, modifiedMs: file.modifiedMs };
    if (this.panel) this.panel.update(view, turn, listing);
    else {
      const mediaUrl = (media: string) => this.source.mediaUrl(media);
      this.panel = runPanel(this.name, view, turn, this.state, mediaUrl, listing);
      this.box.replaceChildren(this.panel.element);
    }
    this.shown(view, read.from + utf8.encode(read.text).length);
    if (this.log.readsOn()) return this.loadNow(file, turn); // a file larger than one read: the rest
  }
}
