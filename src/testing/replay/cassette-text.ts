// How `recordModel` lays out a cassette's text, and how a reader finds the whole calls in a file whose end
// was cut. The file is `JSON.stringify(cassette, null, 2)` and a newline, so each step is an item of the
// top-level `steps` array, four spaces in, and ends with a line of four spaces and `}`: no other line is
// that, for deeper lines are indented further and a string's line breaks are written `\n`. A recording
// adds each call in one write over the file's closing bytes (cassette-recording.ts); a process killed
// inside that write leaves every call before it whole, then part of the new one or of the closing bytes.
// Such a file is read up to its last whole call, and the reader is told what was left out. Any other file
// that is not JSON is refused as before: only a cut tail is read this way.

/** The end of a cassette's text: the steps array and the object closed, then a newline. */
export const CASSETTE_CLOSE = "\n  ]\n}\n";

/** Where a step ends: the line that closes an item of `steps`. */
const STEP_END = "\n    }";

/** A step's two-space JSON as an item of the top-level `steps` array (four spaces in). */
export function asStepItem(json: string): string {
  return `    ${json.replaceAll("\n", "\n    ")}`;
}

/** What a cassette file lost at its end: the whole calls it holds, and what came after them. */
export interface CassetteCut {
  /** How many whole calls the file holds (steps 1 to `steps`). */
  readonly steps: number;
  /** How many bytes after the last whole call were left out. */
  readonly bytes: number;
  /** Whether those bytes began the next call (`false`: they were only part of the file's closing bytes). */
  readonly partOfNextStep: boolean;
}

/**
 * The JSON of a cassette text that is not JSON because its end was cut (see the file's header), read up
 * to its last whole call, and what was cut; undefined when the text is not a cassette cut that way.
 */
export function readCutCassette(text: string): { value: unknown; cut: CassetteCut } | undefined {
  const end = text.lastIndexOf(STEP_END);
  if (end < 0) return undefined;
  const kept = text.slice(0, end + STEP_END.length);
  let value: unknown;
  try {
    value = JSON.parse(kept + CASSETTE_CLOSE);
  } catch {
    return undefined; // not a cut tail: damage before the last whole call
  }
  const steps = (value as { steps?: unknown } | null)?.steps;
  if (!Array.isArray(steps) || steps.length === 0) return undefined;
  const rest = text.slice(kept.length);
  return {
    value,
    cut: { steps: steps.length, bytes: Buffer.byteLength(rest), partOfNextStep: rest.includes("{") },
  };
}

/** What a cut left out, for messages: `after step 3, the file's last 812 bytes (part of step 4) were cut off…`. */
export function describeCut(cut: CassetteCut): string {
  const what = cut.partOfNextStep ? `part of step ${cut.steps + 1}` : "part of its closing brackets";
  return `after step ${cut.steps}, the file's last ${cut.bytes} bytes (${what}) were cut off while it was being written`;
}
