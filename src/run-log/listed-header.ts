// What the run list reads of a run's first line: the header's fields that say which run it is (its id,
// kind, start, the run it goes on from), not its content. The header holds the run's prompt and system
// prompt when content is recorded (the default): tens of kB a run, megabytes with a pasted document, so a
// list of thousands of runs that sent each first line whole would be hundreds of MB (past Node's longest
// text at 20 000 runs of 30 kB). A header longer than the server reads of it (a prompt of megabytes) keeps
// the fields written before its prompt: the writer writes `id`, `kind` and `startedAt` first
// (run-log.ts), and every field that ends within the bytes read is read. Pure: the page runs it too.
import type { RunHeaderRecord } from "./run-log-format.js";

/** The header's fields the list reads, in the writer's order: never the content (`prompt`, `system`). */
const LISTED = [
  "type",
  "format",
  "version",
  "id",
  "kind",
  "startedAt",
  "recordContent",
  "continues",
  "conversationId",
] as const satisfies readonly (keyof RunHeaderRecord)[];

/** How much of a first line that is not a JSON object the list keeps: only its problem is shown. */
const OTHER_LINE_CHARS = 1_000;

/**
 * The first line of a run file as the run list reads it: a JSON object with the header's fields the list
 * needs (the same problem for a file of another format or version, or with no header), a line that is no
 * JSON object cut to 1 000 characters (it stays no JSON: "…" ends it), or empty when `line` is the start of
 * a line longer than what was read (`whole: false`) that is no JSON object.
 *
 * @param line - the first line, without its newline, or its first bytes when it is longer than was read
 * @param whole - whether `line` is the whole line
 */
export function listedHeader(line: string, whole: boolean): string {
  const fields = whole ? parsedObject(line) : leadingMembers(line);
  if (fields) {
    const listed: Record<string, unknown> = {};
    for (const key of Object.keys(fields))
      if ((LISTED as readonly string[]).includes(key)) listed[key] = fields[key];
    return JSON.stringify(listed);
  }
  if (!whole) return "";
  return line.length <= OTHER_LINE_CHARS ? line : `${line.slice(0, OTHER_LINE_CHARS)}…`;
}

function parsedObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The members of the JSON object `text` starts with that end within it (the object itself when it ends
 * there); undefined when `text` does not start an object.
 */
function leadingMembers(text: string): Record<string, unknown> | undefined {
  const start = text.search(/\S/);
  if (start === -1 || text[start] !== "{") return undefined;
  let depth = 0;
  let inString = false;
  let lastMember = -1; // the comma after the last whole top-level member
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === "{" || c === "[") depth++;
    else if (c === "}" || c === "]") {
      if (--depth === 0) return parsedObject(text.slice(start, i + 1));
    } else if (c === "," && depth === 1) lastMember = i;
  }
  return lastMember === -1 ? {} : (parsedObject(`${text.slice(start, lastMember)}}`) ?? {});
}
