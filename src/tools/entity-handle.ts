import { EntityToolsError } from "../errors/entity-tools-error.js";
import { echoed } from "./echoed-text.js";
import {
  identityOf,
  identityOfKey,
  instanceKeyOf,
  type HandleIdentity,
  type ProviderIdentity,
} from "./provider-identity.js";
import { readProviderId } from "./read-provider-id.js";
import { KeyRing, type SigningKeys } from "./signing-key.js";

/**
 * The key handles are signed with: the one signing-key type (text or bytes, at least 16 bytes), or a list
 * for rotation (`[newKey, oldKey]`: the first signs, any verifies).
 */
export type HandleKey = SigningKeys;

export type { HandleIdentity } from "./provider-identity.js";

/** Why a text is not a handle this codec accepts. */
export type HandleProblem = "malformed" | "signature";

/** What {@link EntityHandleCodec.read} made of a text: the identity, or why it is refused. */
export type HandleReading =
  | ({ readonly ok: true; readonly handle: string } & HandleIdentity)
  | { readonly ok: false; readonly problem: HandleProblem; readonly message: string };

/** A handle that cannot be used: malformed, not signed with this key, another class's, or not resolvable. */
export class EntityHandleError extends EntityToolsError {
  /** This class's name, written out so that a minified bundle keeps it. */
  static override readonly errorName: string = "EntityHandleError";

  constructor(
    /** The handle the model passed. */
    readonly handle: string,
    /** Malformed, not signed with this key, another class's handle, or its provider not found (`unresolved`). */
    readonly problem: HandleProblem | "wrong-class" | "unresolved",
    message: string,
    /**
     * `cause`: what made the provider unavailable (a `resolveProvider` that threw: an error saying so, whose
     * own `cause` is what it threw).
     */
    options?: { readonly cause?: unknown },
  ) {
    super(message, options);
  }
}

const MAC_BYTES = 16; // 128 bits of HMAC-SHA-256: a forgery cannot be guessed
const MAC_CHARS = 22; // base64url of 16 bytes, no padding
const MAC_SEPARATOR = "~";
const MAC_PATTERN = /^[A-Za-z0-9_-]{22}$/;
// A class's source name is an identifier (any Unicode letters): it never holds ":" or "#", so the first
// of them ends it.
const HEAD = /^([^:#\s]+)([:#])/u;
const FORM =
  'Handles look like "Customer:c123~<22 characters>" (text id) or "Order#42~<22 characters>" (number id)';

/**
 * The one handle rule: a handle names one (provider class, typed id) in a readable form plus a MAC, so it
 * is verified without memory by anyone holding the key.
 *
 * - Text id: `Customer:c123~<mac>`; number id: `Order#42~<mac>`; bigint id: `Order#42n~<mac>`. The id
 *   follows the separator verbatim (it may hold `_`, `:`, `~`: the MAC has a fixed length at the end).
 * - The MAC is HMAC-SHA-256 over the class's source name and the id with its type (`1`, `"1"` and `1n` are
 *   different providers, as for names), cut to 128 bits, in base64url.
 * - Without a key, the process's random key signs (`KeyRing.processWide`): every codec, runner and MCP
 *   server of one process without a key accepts the others' handles, and no other process does. Give the
 *   same key to every process that must accept another's handles. A key list rotates keys as snapshots
 *   do (the first signs, any verifies): one signing-key rule, see `KeyRing`.
 *
 * @throws InvalidSettingError (from the constructor) for an empty list or a key shorter than 16 bytes.
 */
export class EntityHandleCodec {
  private readonly keys: KeyRing;

  constructor(key?: HandleKey | KeyRing) {
    this.keys =
      key === undefined ? KeyRing.processWide() : key instanceof KeyRing ? key : KeyRing.of("handleKey", key);
  }

  /** The handle of a provider instance (its class's source name and typed id). */
  handleOf(instance: object): string {
    return this.mint(readProviderId(instance).identity);
  }

  /**
   * The handle of a provider identity. (The old form, a deprecated `ProviderKey` `{ className, instanceKey }`,
   * is still accepted.)
   */
  mint(identity: ProviderIdentity | Pick<HandleIdentity, "className" | "instanceKey">): string {
    const named = "idType" in identity ? identity : identityOfKey(identity.className, identity.instanceKey);
    const { providerClass, id, idType } = named;
    const body =
      idType === "string"
        ? `${providerClass}:${id}`
        : `${providerClass}#${id}${idType === "bigint" ? "n" : ""}`;
    return `${body}${MAC_SEPARATOR}${this.keys.sign(macInput(named), MAC_BYTES)}`;
  }

  /** Reads and verifies a handle: the identity it names, or why it is refused (never throws). */
  read(handle: unknown): HandleReading {
    const parsed = parseHandle(handle);
    if (!parsed.ok) return parsed;
    const { identity, mac } = parsed;
    if (!this.keys.verify(macInput(identity), mac, MAC_BYTES)) {
      return {
        ok: false,
        problem: "signature",
        message:
          `The handle "${echoed(parsed.handle)}" has a signature this runner did not make: it was changed, or minted with another ` +
          // A conversation continued in another process without handleKey (a restart, another worker)
          // lands here with a handle it was given: the way on is a fresh handle, from the tool that found
          // the entity.
          "handleKey (without handleKey, each process signs with a key of its own). Use a handle exactly as a tool " +
          "result of this runner gave it: call again the tool that found the entity",
      };
    }
    // The deprecated fields stay set for readers of the old shape; the library reads the identity.
    const old = { className: identity.providerClass, instanceKey: instanceKeyOf(identity) };
    return { ok: true, handle: parsed.handle, ...identity, ...old };
  }
}

/**
 * The provider a handle's readable part names (`Customer:c123~…` names Customer `"c123"`), without checking
 * its signature, or `undefined` when the text is not of a handle's form. For reports about a run (which
 * entity a call was made on); never for binding, which verifies ({@link EntityHandleCodec.read}).
 */
export function handleIdentityOf(handle: unknown): ProviderIdentity | undefined {
  const parsed = parseHandle(handle);
  return parsed.ok ? parsed.identity : undefined;
}

/** A handle's identity and MAC, or why the text is not of a handle's form. */
function parseHandle(
  given: unknown,
):
  | { ok: true; handle: string; identity: ProviderIdentity; mac: string }
  | Extract<HandleReading, { ok: false }> {
  if (typeof given !== "string") return malformed(String(given), `a handle is text, not ${kindOf(given)}`);
  // A handle starts with a class name and ends with its MAC, so white space around it is never its own:
  // a model (or a wire) that adds a space or a line break still means the handle inside.
  const handle = given.trim();
  const macStart = handle.length - MAC_CHARS;
  const mac = handle.slice(macStart);
  if (handle[macStart - 1] !== MAC_SEPARATOR || !MAC_PATTERN.test(mac))
    return malformed(handle, `it does not end in "~" and a ${MAC_CHARS}-character signature`);
  const body = handle.slice(0, macStart - 1);
  const head = HEAD.exec(body);
  if (!head) return malformed(handle, 'it does not start with a class name and ":" or "#"');
  const identity = identityIn(head[1]!, head[2] === ":", body.slice(head[0].length));
  if (typeof identity === "string")
    return malformed(handle, `"${echoed(identity)}" is not an id of that form`);
  return { ok: true, handle, identity, mac };
}

/** What a handle's MAC covers: the purpose, the class's name and the typed id. */
function macInput(identity: ProviderIdentity): string {
  return `entity-tools/handle\n${identity.providerClass}\n${instanceKeyOf(identity)}`;
}

/**
 * The identity a handle's text names, or the id text when it is not one: an id is written as `String(id)`
 * gives it (see `identityOf`), so each provider has exactly one handle.
 */
function identityIn(providerClass: string, isText: boolean, text: string): ProviderIdentity | string {
  if (text.trim() === "") return text;
  if (isText) return identityOf(providerClass, text);
  const bigint = text.endsWith("n");
  const digits = bigint ? text.slice(0, -1) : text;
  const value = bigint ? (/^-?\d+$/.test(digits) ? BigInt(digits) : undefined) : Number(digits);
  if (value === undefined || (typeof value === "number" && !Number.isFinite(value))) return text;
  const identity = identityOf(providerClass, value);
  return String(identity.id) === digits ? identity : text;
}

function malformed(handle: string, why: string): Extract<HandleReading, { ok: false }> {
  return {
    ok: false,
    problem: "malformed",
    message: `"${echoed(handle)}" is not a handle: ${why}. ${FORM}; pass one exactly as a tool result gave it`,
  };
}

function kindOf(value: unknown): string {
  return value === null ? "null" : Array.isArray(value) ? "an array" : `a ${typeof value}`;
}
