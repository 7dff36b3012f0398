import { serializeToolResult } from "./serialize-result.js";

/**
 * What a thrown value says, as the model may read it: an error's message, a string as is, anything else
 * serialized like a result (so `@Exclude()` fields of a thrown object never reach the model), at most
 * `maxChars` long. Never throws, whatever was thrown (a revoked Proxy, a getter that throws).
 */
export function describeThrown(thrown: unknown, maxChars: number): string {
  try {
    if (thrown instanceof Error) return cap(thrown.message || thrown.name, maxChars);
    if (typeof thrown === "string") return cap(thrown, maxChars);
    // JSON has no text for these: serialized, they read as a result ("no result: the tool completed …").
    if (thrown === undefined) return "undefined";
    if (typeof thrown === "symbol") return cap(thrown.toString(), maxChars);
    if (typeof thrown === "function") return "a function";
    return serializeToolResult(thrown, { maxChars });
  } catch {
    return "(the thrown value could not be read)";
  }
}

/**
 * What was thrown, for an operator (a failed call's `cause` in the run log, on a span with `recordContent`):
 * an error as its name and message (`TypeError: …`), anything else as {@link describeThrown} says it,
 * followed by what it wraps (its `cause`, and so on), `; caused by ` before each: a wrapper such as
 * `StrategyError` would otherwise hide the original's type. A cause whose message the error before it
 * already quotes (as `StrategyError`'s does) is named only (`StrategyError: … failed after "x": boom;
 * caused by TypeError`). At most 8 links (a cycle ends the chain), about `maxChars` long in all: past
 * it, the longest parts are cut (each says so), never a link's name. Never throws.
 */
export function describeCause(thrown: unknown, maxChars: number): string {
  const links = causeChain(thrown);
  const parts = links.map((link, i) => {
    const quoted = i > 0 && messageQuoted(links[i - 1], link);
    return quoted ? nameOf(link) : describeLink(link, maxChars);
  });
  return fitted(parts, maxChars).join(CAUSED_BY);
}

/** The most links {@link describeCause} follows: a chain longer is cut there. */
const MAX_CAUSE_LINKS = 8;

const CAUSED_BY = "; caused by ";

/**
 * The parts, each capped so that together they take about `maxChars`: the short ones whole, the long ones
 * an equal share of what is left, so a long first message never cuts the original's name off the end.
 */
function fitted(parts: readonly string[], maxChars: number): string[] {
  let left = maxChars - CAUSED_BY.length * (parts.length - 1);
  if (parts.reduce((sum, p) => sum + p.length, 0) <= left) return [...parts];
  const share = new Map<number, number>();
  const byLength = parts.map((p, i) => i).sort((a, b) => parts[a]!.length - parts[b]!.length);
  byLength.forEach((i, rank) => {
    const fair = Math.max(1, Math.floor(left / (parts.length - rank)));
    share.set(i, Math.min(fair, parts[i]!.length));
    left -= share.get(i)!;
  });
  return parts.map((p, i) => cap(p, share.get(i)!));
}

/** `thrown`, then what each error wraps (`error.cause`), without repeats, at most `MAX_CAUSE_LINKS`. */
function causeChain(thrown: unknown): unknown[] {
  const links = [thrown];
  let current = thrown;
  while (links.length < MAX_CAUSE_LINKS) {
    const next = read(() => (current instanceof Error ? current.cause : undefined));
    if (next === undefined || next === null || links.includes(next)) break;
    links.push(next);
    current = next;
  }
  return links;
}

function describeLink(link: unknown, maxChars: number): string {
  const error = read(() => (link instanceof Error ? `${link.name}: ${link.message}` : undefined));
  return error ?? describeThrown(link, maxChars);
}

/** Whether `outer`'s message already says `inner`'s (a wrapper that quotes what it wraps). */
function messageQuoted(outer: unknown, inner: unknown): boolean {
  return (
    read(
      () =>
        outer instanceof Error &&
        inner instanceof Error &&
        typeof outer.message === "string" &&
        typeof inner.message === "string" &&
        outer.message.includes(inner.message),
    ) === true
  );
}

function nameOf(link: unknown): string {
  const name = read(() => (link instanceof Error ? String(link.name) : undefined));
  if (name !== undefined) return name;
  if (link === null) return "null";
  const type = typeof link;
  return `${/^[aeiou]/.test(type) ? "an" : "a"} ${type}`;
}

/** `get()`, or `undefined` when it throws (a getter that throws, a revoked Proxy). */
function read<T>(get: () => T): T | undefined {
  try {
    return get();
  } catch {
    return undefined;
  }
}

function cap(text: string, maxChars: number): string {
  return serializeToolResult(text, { maxChars });
}
