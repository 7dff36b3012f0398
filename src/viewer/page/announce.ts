// What a screen reader is told of the open run, in a few words: that a run was opened, that a run still
// going wrote more steps, that it ended. The run's panel itself is not a live region: a live run redraws
// parts of it at every read, and a screen reader would read them all out.
import type { RunView } from "../../run-log/run-log-steps.js";
import { counted } from "./dom.js";

/** Says what changed in the open run, in `status` (a `role="status"` element). */
export class Announcer {
  private name: string | undefined;
  private steps = 0;
  private ended = false;

  constructor(private readonly status: HTMLElement) {}

  /** The run `name` is shown as `view`: says what is new since it was last shown, if anything. */
  shown(name: string, view: RunView): void {
    const steps = view.steps.length;
    const ended = view.end !== undefined;
    const message =
      name !== this.name
        ? `Run ${name}: ${view.end?.status ?? "no end yet"}, ${counted(steps, "step")}`
        : ended && !this.ended
          ? `The run ended: ${view.end!.status}, ${counted(steps, "step")}`
          : steps > this.steps
            ? `Step ${steps} written`
            : undefined;
    this.name = name;
    this.steps = steps;
    this.ended = ended;
    if (message !== undefined) this.status.textContent = message;
  }
}
