// A recording grows one model call at a time, and its file must be a whole cassette after every call: a
// test reads or replays it as soon as the run ends, and a process that dies keeps what it recorded.
// Rewriting the whole file per call made a recording cost quadratic in its calls. Instead the file is
// written whole once, at the first call (a temporary file renamed over any older one), and each later
// call replaces only the file's closing `]` and `}` with `, <the call> ] }`: one positioned write of the
// new call's bytes. The file is always `JSON.stringify(cassette, null, 2)` and a newline, of the whole
// cassette (the documented format, in its stable order, laid out by cassette-text.ts). A file that is not
// as the recording left it (deleted, replaced, cut by a write that failed) is written whole again at the
// next call. A recording's first call may go on in the file instead, when its prompt holds the file's
// recorded calls up to its last step (a paused run resumed in another process: `begin`). What the rename
// gave and this does not: a process killed inside the one write that adds a call (a few kilobytes,
// microseconds) can leave that call cut off. A reader then reads the calls before it and says what was
// cut (cassette-text.ts), and a replay that needs the cut call fails saying so.
import type { LanguageModelV3Prompt } from "@ai-sdk/provider";
import { nodeFs } from "../../lazy/node-builtins.js";
import type { Cassette, CassetteStep } from "./cassette.js";
import { readCassette, writeCassetteFile } from "./cassette-file.js";
import { RecordedCallIndex } from "./replay-position.js";
import { asStepItem, CASSETTE_CLOSE } from "./cassette-text.js";

const CLOSE_BYTES = Buffer.byteLength(CASSETTE_CLOSE);

/** A cassette file being recorded: each {@link add} is on disk, the file whole, when it resolves. */
export class CassetteRecording {
  /** Each step's text as it stands in the file (indented as an item of `steps`). */
  private readonly items: string[] = [];
  /** The file as this recording last wrote it: how many steps and bytes it holds, and its inode. */
  private onDisk: OnDisk | undefined;
  private writing: Promise<void> = Promise.resolve();
  /** Whether the recording goes on in the file's earlier steps: decided once, at its first call. */
  private begun: Promise<void> | undefined;

  constructor(
    private readonly file: string,
    private readonly header: Omit<Cassette, "steps">,
  ) {}

  /**
   * Decides, at the recording's first call (`prompt` is that call's), whether it goes on in the file: when
   * the file is a cassette of the same model whose last step is the one the prompt's recorded calls say
   * the run has reached (a run resumed from a snapshot, or a conversation's next turn, on a recording of
   * its own: another process), its steps are kept and this call comes after them. Otherwise the first call
   * replaces the file, as a new run's does. Resolves once decided; later calls wait for the same decision.
   */
  begin(prompt: LanguageModelV3Prompt): Promise<void> {
    this.begun ??= this.earlierSteps(prompt).then((steps) => {
      if (this.items.length === 0)
        for (const step of steps) this.items.push(asStepItem(JSON.stringify(step, null, 2)));
    });
    return this.begun;
  }

  /** The file's steps when the run of `prompt` goes on from them; none when it does not, or cannot be read. */
  private async earlierSteps(prompt: LanguageModelV3Prompt): Promise<readonly CassetteStep[]> {
    const calledBefore = prompt.some(
      (m) => m.role === "assistant" && m.content.some((p) => p.type === "tool-call"),
    );
    if (!calledBefore) return []; // a run's first call: nothing to go on from, and no file to read
    let cassette: Cassette;
    try {
      cassette = await readCassette(this.file); // a regular file only: a FIFO there would block the read
    } catch {
      return []; // no file, or not a cassette: the recording replaces it
    }
    const { provider, modelId } = this.header.model;
    if (cassette.model.provider !== provider || cassette.model.modelId !== modelId) return [];
    const reached = new RecordedCallIndex(cassette.steps).stepAfter(prompt);
    return reached === cassette.steps.length + 1 ? cassette.steps : [];
  }

  /**
   * Adds the next model call (numbered here) and resolves once the file holds it. Calls are written in
   * the order they were added; a failed write fails its call only (the next one writes the file whole).
   */
  add(call: Omit<CassetteStep, "step">): Promise<void> {
    const step: CassetteStep = { step: this.items.length + 1, ...call };
    this.items.push(asStepItem(JSON.stringify(step, null, 2)));
    const count = this.items.length;
    this.writing = this.writing.catch(() => undefined).then(() => this.write(count));
    return this.writing;
  }

  private async write(count: number): Promise<void> {
    const onDisk = this.onDisk;
    this.onDisk = undefined; // until this write is known to have landed
    const appended = onDisk ? await this.append(onDisk, count) : undefined;
    if (appended !== undefined) {
      this.onDisk = { ...onDisk!, steps: count, bytes: appended };
      return;
    }
    const text = this.wholeText(count);
    await writeCassetteFile(this.file, text);
    const { ino } = await nodeFs().stat(this.file);
    this.onDisk = { steps: count, bytes: Buffer.byteLength(text), ino };
  }

  /**
   * Writes steps `onDisk.steps + 1` to `count` over the file's closing bytes and returns the file's new
   * size, or undefined when the file is not as this recording left it or cannot be written in place.
   */
  private async append(onDisk: OnDisk, count: number): Promise<number | undefined> {
    const added = Buffer.from(`,\n${this.items.slice(onDisk.steps, count).join(",\n")}${CASSETTE_CLOSE}`);
    const at = onDisk.bytes - CLOSE_BYTES;
    const handle = await nodeFs()
      .open(this.file, "r+")
      .catch(() => undefined);
    if (!handle) return undefined;
    try {
      const { size, ino } = await handle.stat();
      if (size !== onDisk.bytes || ino !== onDisk.ino) return undefined;
      const { bytesWritten } = await handle.write(added, 0, added.length, at);
      return bytesWritten === added.length ? at + added.length : undefined;
    } catch {
      return undefined;
    } finally {
      await handle.close();
    }
  }

  /** The whole file with the first `count` steps: two-space JSON, fields in a fixed order, a final newline. */
  private wholeText(count: number): string {
    const empty = JSON.stringify({ ...this.header, steps: [] }, null, 2); // ends in `"steps": []\n}`
    return `${empty.slice(0, -"[]\n}".length)}[\n${this.items.slice(0, count).join(",\n")}${CASSETTE_CLOSE}`;
  }
}

interface OnDisk {
  readonly steps: number;
  readonly bytes: number;
  readonly ino: number;
}
