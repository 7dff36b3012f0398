// The one identity rule for a provider object that comes back from outside the run (a snapshot's
// `resolveProvider`, an entity handle re-bound by another runner): it must be an instance of the class the
// record names, with the id the record names, of the same type. Anything else would bind a name (or a
// handle) to an object it does not stand for, and the model would read another entity's data.
import { EntityToolsError } from "../errors/entity-tools-error.js";
import { sourceNameOf } from "../schema/schema-store.js";
import { InvalidToolProviderError } from "./errors.js";
import { readProviderId } from "./read-provider-id.js";
import {
  identityOf,
  instanceKeyOf,
  providerKeyOf,
  type ProviderIdentity,
  type ProviderToolIdentity,
} from "./provider-identity.js";
import type { AnyTool } from "./tool.js";

/**
 * Which provider object a tool is bound to, by its class's source name and its id in its own type.
 *
 * @deprecated Use {@link ProviderIdentity} (`providerClass`, `id`, `idType`), the one provider-identity type.
 */
export interface ProviderRef {
  /** The provider class's source name (what `resolveProvider` receives). */
  readonly providerClass: string;
  /** The provider's id, with its own type (a `bigint` id is a `bigint`). */
  readonly id: string | number | bigint;
}

/**
 * Which provider and method a call of `tool` runs on: a provider's tool's own binding, or for a handle
 * tool the provider its `input`'s handle names; `undefined` for any other tool (plain objects,
 * `defineTool`, MCP) and for a handle tool whose handle is not valid.
 */
export function providerBindingOf(tool: AnyTool, input?: unknown): ProviderToolIdentity | undefined {
  const origin = tool.origin;
  if (origin?.identity) return { ...plainIdentity(origin.identity), method: origin.methodName };
  const target = tool.handleTarget;
  const named = isRecord(input) ? target?.providerOf?.(input) : undefined;
  return named && target ? { ...plainIdentity(named), method: target.methodName } : undefined;
}

/**
 * `{ provider }` of a call of `tool` with `input` ({@link providerBindingOf}), or nothing: what the events
 * of a call that ended carry, so the run log and the cost name the provider a valid handle names, also one
 * the run never found.
 */
export function callProvider(
  tool: AnyTool | undefined,
  input: unknown,
): { readonly provider?: ProviderToolIdentity } {
  const provider = tool && providerBindingOf(tool, input);
  return provider ? { provider } : {};
}

/** Only the identity's own fields (a handle's reading carries more), as snapshots and approvals record it. */
export function plainIdentity({ providerClass, id, idType }: ProviderIdentity): ProviderIdentity {
  return { providerClass, id, idType };
}

function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** An identity's id in its own type, as `resolveProvider` receives it (a `bigint` id is a `bigint`). */
export function nativeIdOf(identity: Pick<ProviderIdentity, "id" | "idType">): string | number | bigint {
  const { id, idType } = identity;
  if (idType === "number") return Number(id);
  if (idType === "bigint") return BigInt(id);
  return String(id);
}

/**
 * Returns the live provider of a class (by source name) and id, the id with its own type (a `bigint` id is
 * a `bigint`): what re-binds a snapshot's tools (and handles) in a process that does not hold the object.
 * Sync or async. It must return that class's object with that id (or `undefined` when it is gone):
 * anything else is refused, see `checkResolvedProvider`.
 */
// Declared as a method so a resolver written before bigint ids were passed (`id: string | number`) still
// type-checks: method parameters are compared bivariantly.
export type ProviderResolver = {
  /** Returns the provider of that class source name and id (or a promise of it). */
  resolve(providerClass: string, id: string | number | bigint): unknown;
}["resolve"];

/**
 * A resolver that answers from `live` (providers by `providerKeyOf(identity)`: the objects a run of this
 * process bound behind the snapshot it handed out), and asks `resolve` for any other.
 */
export function liveFirst(
  live: ReadonlyMap<string, object> | undefined,
  resolve: ProviderResolver | undefined,
): ProviderResolver | undefined {
  if (!live || live.size === 0) return resolve;
  return (providerClass, id) =>
    live.get(providerKeyOf(identityOf(providerClass, id))) ?? resolve?.(providerClass, id);
}

/** A provider that came back from outside the run is not the one its record names. */
export class ProviderMismatchError extends EntityToolsError {
  /** This class's name, written out so that a minified bundle keeps it. */
  static override readonly errorName: string = "ProviderMismatchError";

  constructor(
    /** What was asked for. */
    readonly expected: ProviderIdentity,
    /** What is wrong with what came back ("returned …"), for a message to the model. */
    readonly reason: string,
  ) {
    super(
      `resolveProvider ${reason}. Return the ${expected.providerClass} with id ${describeKey(instanceKeyOf(expected))} (or undefined when it is gone)`,
    );
  }
}

/**
 * `value`, checked to be the provider `expected` names: an object of that class (by source name, the
 * class itself: a subclass is another provider) whose id has that value and type.
 *
 * @throws ProviderMismatchError naming what came back instead.
 */
export function checkResolvedProvider(value: unknown, expected: ProviderIdentity): object {
  if (typeof value !== "object" || value === null)
    throw new ProviderMismatchError(expected, `returned ${value === null ? "null" : `a ${typeof value}`}`);
  const cls: unknown = value.constructor;
  const className = typeof cls === "function" ? sourceNameOf(cls) : "(an object without a class)";
  if (className !== expected.providerClass)
    throw new ProviderMismatchError(
      expected,
      `returned an object of class ${className}, not of class ${expected.providerClass}`,
    );
  let instanceKey: string;
  try {
    instanceKey = instanceKeyOf(readProviderId(value).identity);
  } catch (error) {
    if (!(error instanceof InvalidToolProviderError)) throw error;
    throw new ProviderMismatchError(expected, `returned an object without a usable id (${error.reason})`);
  }
  const expectedKey = instanceKeyOf(expected);
  if (instanceKey !== expectedKey)
    throw new ProviderMismatchError(
      expected,
      `returned the one with id ${describeKey(instanceKey)}, not ${describeKey(expectedKey)}`,
    );
  return value;
}

/** An id as code writes it: `number:1` → `1`, `string:1` → `"1"`, `bigint:1` → `1n`. */
function describeKey(instanceKey: string): string {
  const cut = instanceKey.indexOf(":");
  const type = instanceKey.slice(0, cut);
  const text = instanceKey.slice(cut + 1);
  return type === "string" ? JSON.stringify(text) : type === "bigint" ? `${text}n` : text;
}
