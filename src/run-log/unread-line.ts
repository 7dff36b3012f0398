// What the viewer's server could not send of a run file, said in the file's own text so that the one
// reader (readRunLog, which the page runs) names it with the lines it skipped: a line longer than the
// server reads at once (a file of gigabytes with no newline), the rest of a file larger than one read, or
// a file it cannot open (no permission). Such a stand-in is a line that begins with a NUL character, then
// JSON: no run log line does (JSON cannot start so), and a line of a file that does is shown only as the
// note it makes, as text, like any skipped line.

/** What a stand-in says was not read. */
export type UnreadPart =
  /** One line of `bytes` bytes, longer than one read (`limit`): skipped. */
  | { readonly unread: "line"; readonly bytes: number; readonly limit: number }
  /** The file's last `bytes` bytes, after what one read (`limit`) held: read next. */
  | { readonly unread: "rest"; readonly bytes: number; readonly limit: number }
  /** The whole file: it cannot be opened (`reason`, as the system said it). */
  | { readonly unread: "file"; readonly reason: string };

const MARK = "\u0000";

/** The stand-in line for `part` (without a newline). */
export function unreadLine(part: UnreadPart): string {
  return `${MARK}${JSON.stringify(part)}`;
}

/** Whether `raw` is the stand-in of a rest the next read gives (a reader that reads on asks for it at once). */
export function isUnreadRest(raw: string): boolean {
  return raw.startsWith(`${MARK}{"unread":"rest"`);
}

/**
 * The reader's note for a stand-in line (`line`, its number; `last`: the file's last, without a newline),
 * or undefined when `raw` is not one.
 */
export function unreadNote(raw: string, line: number, last: boolean): string | undefined {
  if (!raw.startsWith(MARK)) return undefined;
  let part: Partial<Record<"unread" | "reason", unknown> & Record<"bytes" | "limit", unknown>>;
  try {
    part = JSON.parse(raw.slice(MARK.length)) as typeof part;
  } catch {
    return undefined;
  }
  const { bytes, limit } = part;
  if (part.unread === "file" && typeof part.reason === "string")
    return `the file cannot be read (${part.reason}): skipped`;
  if (typeof bytes !== "number" || typeof limit !== "number") return undefined;
  if (part.unread === "line")
    return last
      ? `line ${line} has no end after ${bytes} bytes, more than the viewer reads of a line (${limit}): skipped`
      : `line ${line} is ${bytes} bytes long, more than the viewer reads of a line (${limit}): skipped`;
  if (part.unread === "rest")
    return `the file's last ${bytes} bytes, after line ${line - 1}, are not read: more than one read of the viewer (${limit} bytes)`;
  return undefined;
}
