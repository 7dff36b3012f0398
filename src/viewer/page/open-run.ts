// The run open on the page: what has been read of its file and its panel. A run still going is read from
// where the last read ended and only what it gained is parsed (GrowingRunLog); its view is made again from
// all its records, and its panel keeps what did not change (the focus, a typed filter, the scroll position).
// A file that shrank, was replaced (another first line) or rewritten (another stamp, no longer) is read
// again from its start.
import { GrowingRunLog } from "../../run-log/read-run-log.js";
import { runView, type RunView } from "../../run-log/run-log-steps.js";
import { h } from "./dom.js";
import type { LogEntry, LogSource } from "./log-source.js";
import { runPanel, type RunPanel, type RunPanelState } from "./run-panel.js";

/** What the list says of the open run's file. */
export type FileState = Pick<LogEntry, "size" | "head" | "stamp">;

/** The run open in `box`, read from `source`. */
export class OpenRun {
  private log = new GrowingRunLog();
  /** Where the next read starts: after the last whole line read. */
  private next = 0;
  /** The file's size, first line and stamp when it was last read. */
  private size = 0;
  private head = "";
  private stamp = "";
  private panel: RunPanel | undefined;
  private state: RunPanelState = { page: 0, open: new Set() };
  private loading = Promise.resolve();
  private closed = false;

  constructor(
    readonly name: string,
    private readonly source: LogSource,
    private readonly box: HTMLElement,
    /** Called with the run as shown, and how many bytes of its file are on the page. */
    private readonly shown: (view: RunView, bytes: number) => void,
  ) {}

  /** Whether the file changed since it was last read: it grew, shrank, was replaced or rewritten. */
  changed(file: FileState): boolean {
    return file.size !== this.size || file.stamp !== this.stamp || this.replaced(file);
  }

  /**
   * Reads what the file gained since the last read and shows the run as it is now (turn `turn` of its
   * conversation). One read at a time: two reads from the same offset would add the same lines twice.
   */
  load(file: FileState, turn: number | undefined): Promise<void> {
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

  private async loadNow(file: FileState, turn: number | undefined): Promise<void> {
    if (file.size < this.next || this.replaced(file) || this.rewritten(file)) this.restart();
    let from = this.next;
    let read = await this.source.read(this.name, from);
    if (this.closed) return;
    if (read.next < from) {
      // The file is shorter than what was read of it: replaced since the list was read.
      this.restart();
      from = 0;
      read = await this.source.read(this.name, 0);
      if (this.closed) return;
    }
    // A last line without its newline (being written, or cut short by a crash) is read with the rest,
    // and again, whole, with the next read: `next` is where the last whole line ended.
    this.log.append(read.text);
    if (from === 0) this.head = read.text.includes("\n") ? read.text.slice(0, read.text.indexOf("\n")) : "";
    this.next = read.next;
    this.size = file.size;
    this.stamp = file.stamp;
    const view = runView(this.log.read());
    if (this.panel) this.panel.update(view, turn);
    else {
      this.panel = runPanel(this.name, view, turn, this.state, (media) => this.source.mediaUrl(media));
      this.box.replaceChildren(this.panel.element);
    }
    this.shown(view, from + new TextEncoder().encode(read.text).length);
  }

  /** Whether the file is another one than the one read: its first line is not the same. */
  private replaced(file: FileState): boolean {
    return this.head !== "" && file.head !== "" && file.head !== this.head;
  }

  /** Whether the file was written again without growing: it changed (another stamp) at the same size or less. */
  private rewritten(file: FileState): boolean {
    return this.stamp !== "" && file.stamp !== this.stamp && file.size <= this.size;
  }

  /** Reads the file again from its start (it shrank, or was replaced), into a new panel. */
  private restart(): void {
    this.log = new GrowingRunLog();
    this.next = 0;
    this.head = "";
    this.panel = undefined;
    this.state = { page: 0, open: new Set() };
  }
}
