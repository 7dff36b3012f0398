import { MAX_TOOL_NAME_LENGTH, isValidToolName } from "./tool-name-rules.js";
import { SHORT_HASH_LENGTH, shortHash } from "./short-hash.js";

const INVALID_CHARS = /[^a-zA-Z0-9_-]/g;
const SAFE_PART = /^[a-zA-Z0-9_-]*$/;
const SAFE_HEAD = /^[a-zA-Z_][a-zA-Z0-9_-]*$/;
const HASH_SUFFIX_LENGTH = SHORT_HASH_LENGTH + 1; // "_" + the hash
const HASH = /^[0-9a-z]+$/;

/**
 * The name of a provider tool: `<prefix>_<id>_<method>`, valid for every major provider.
 *
 * When the raw name is already valid it is used as is. Otherwise (characters outside `[a-zA-Z0-9_-]`,
 * over 64 characters, or a leading digit or dash) the id is sanitized and shortened and a hash of the
 * raw name is appended, so two different raw names never produce the same tool name; the prefix and
 * method stay readable whenever they fit.
 */
export function providerToolName(prefix: string, id: string, method: string): string {
  return providerToolNames(prefix, id, [method])[0]!;
}

/**
 * {@link providerToolName} for several methods of one provider: the id is checked once, which is what
 * discovery of thousands of providers spends its time on.
 */
export function providerToolNames(prefix: string, id: string, methods: readonly string[]): string[] {
  const headIsSafe = SAFE_HEAD.test(prefix) && SAFE_PART.test(id);
  return methods.map((method) => {
    const raw = `${prefix}_${id}_${method}`;
    if (headIsSafe && raw.length <= MAX_TOOL_NAME_LENGTH && SAFE_PART.test(method)) return raw;
    return alteredName(raw, prefix, id, method);
  });
}

function alteredName(raw: string, prefix: string, id: string, method: string): string {
  const head = leadingSafe(sanitize(prefix));
  const tail = sanitize(method);
  const suffix = `_${shortHash(raw)}`;
  const idRoom = MAX_TOOL_NAME_LENGTH - head.length - tail.length - 2 - HASH_SUFFIX_LENGTH;
  if (idRoom >= 0) {
    return `${head}_${sanitize(id).slice(0, idRoom)}${suffix}_${tail}`;
  }
  // Prefix and method alone do not fit: keep the start of the sanitized name and the hash.
  return `${leadingSafe(sanitize(raw)).slice(0, MAX_TOOL_NAME_LENGTH - HASH_SUFFIX_LENGTH)}${suffix}`;
}

/**
 * Another name for `name`, for a binding whose natural name is taken by a different one: a hash of the
 * binding's identity and the attempt number (deterministic and valid) inserted before the method, so the
 * method stays the last part (`acct_42_close` → `acct_42_<hash>_close`) and a rule on the name's end
 * (`/_close$/`) still matches. `method` is the method's part of the name (a decorated method's tool);
 * without it (an MCP tool, `defineTool`), or when nothing fits, `name` cut to fit and the hash.
 */
export function disambiguatedToolName(
  name: string,
  identity: string,
  attempt: number,
  method?: string,
): string {
  const suffix = `_${shortHash(`${identity}#${attempt}`)}`;
  const tail = method && name.length > method.length && name.endsWith(`_${method}`) ? `_${method}` : "";
  const room = MAX_TOOL_NAME_LENGTH - suffix.length - tail.length;
  if (tail && room >= 1) return `${name.slice(0, name.length - tail.length).slice(0, room)}${suffix}${tail}`;
  return `${name.slice(0, MAX_TOOL_NAME_LENGTH - HASH_SUFFIX_LENGTH)}${suffix}`;
}

/**
 * Whether `name` is what a binding whose natural name is `natural` can be called: `natural` itself, or
 * a {@link disambiguatedToolName} form of it (the hash before any of its `_` parts, or, as snapshots of
 * earlier versions recorded it, at the end).
 */
export function isNameFor(name: string, natural: string): boolean {
  if (name === natural) return true;
  if (isHashed(name, natural.slice(0, MAX_TOOL_NAME_LENGTH - HASH_SUFFIX_LENGTH), "")) return true;
  for (let cut = natural.indexOf("_", 1); cut > 0; cut = natural.indexOf("_", cut + 1)) {
    const tail = natural.slice(cut);
    const room = MAX_TOOL_NAME_LENGTH - HASH_SUFFIX_LENGTH - tail.length;
    if (room >= 1 && isHashed(name, natural.slice(0, cut).slice(0, room), tail)) return true;
  }
  return false;
}

/** Whether `name` is `head`, `_`, a short hash, then `tail`. */
function isHashed(name: string, head: string, tail: string): boolean {
  return (
    name.length === head.length + HASH_SUFFIX_LENGTH + tail.length &&
    name.startsWith(`${head}_`) &&
    name.endsWith(tail) &&
    HASH.test(name.slice(head.length + 1, head.length + HASH_SUFFIX_LENGTH))
  );
}

/**
 * The name of a handle tool: `<prefix>_<method>`, one per provider class and method (the instance is an
 * argument), made valid as {@link plainToolName} does.
 */
export function handleToolName(prefix: string, method: string): string {
  return plainToolName(`${prefix}_${method}`);
}

/**
 * `name` for a channel that allows fewer than 64 characters (a backend that prefixes our names, such as
 * Claude Code's `mcp__<server>__`): unchanged when it fits, else its start, a hash of the whole name (so
 * two different names never meet) and, when there is room, its last `_` part (the method, which tells a
 * provider's tools apart for the model).
 */
export function fittedToolName(name: string, maxLength: number): string {
  if (name.length <= maxLength) return name;
  const suffix = `_${shortHash(name)}`;
  const cut = name.lastIndexOf("_");
  const tail = cut > 0 ? name.slice(cut) : "";
  const room = maxLength - suffix.length - tail.length;
  if (tail && room >= 1) return `${name.slice(0, room)}${suffix}${tail}`;
  return `${name.slice(0, Math.max(1, maxLength - suffix.length))}${suffix}`;
}

/** The name of a plain tool (a method name or an explicit name), made valid the same way. */
export function plainToolName(name: string): string {
  if (isValidToolName(name)) return name;
  const suffix = `_${shortHash(name)}`;
  return `${leadingSafe(sanitize(name)).slice(0, MAX_TOOL_NAME_LENGTH - HASH_SUFFIX_LENGTH)}${suffix}`;
}

function sanitize(part: string): string {
  return part.replace(INVALID_CHARS, "_");
}

/** Gemini wants a letter or `_` first. */
function leadingSafe(part: string): string {
  return /^[a-zA-Z_]/.test(part) ? part : `_${part}`;
}
