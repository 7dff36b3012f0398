import type { RunEvents } from "../../events/run-events.js";
import type { JsonSchema } from "../../schema/json-schema.js";
import { OutputValidationError } from "../errors/errors.js";
import { readAnswer, repairRequest } from "./structured-output.js";

/** The model's final answer: usable, or the repair request to send back. */
export type AnswerVerdict =
  { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly repair: string };

/**
 * Judges final answers for one run: parses and validates them, reports rejections, and hands back the
 * repair request until the repairs allowed are used up.
 */
export class FinalAnswerCheck {
  private repairs = 0;

  constructor(
    private readonly schema: JsonSchema | undefined,
    private readonly maxRepairs: number,
    private readonly events: RunEvents,
  ) {}

  /** @throws OutputValidationError when the answer is unusable and no repair is left. */
  judge(text: string, iteration: number): AnswerVerdict {
    const final = readAnswer(text, this.schema);
    if (final.ok) return final;
    this.events.emit({ type: "OutputRejected", iteration, problems: final.problems });
    if (this.repairs >= this.maxRepairs) throw new OutputValidationError(final.problems, text, this.repairs);
    this.repairs++;
    return { ok: false, repair: repairRequest(final.problems) };
  }
}
