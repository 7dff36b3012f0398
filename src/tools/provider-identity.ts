// The one provider-identity type (issue 39) and the one key rule (issue 43): how an id becomes an identity,
// and the text every map of providers keys by. Plain types and pure functions: every layer may import it.

/** A provider id's type, as snapshots and handles record it (`1` and `"1"` are different providers). */
export type ProviderIdType = "string" | "number" | "bigint";

/**
 * What names one provider everywhere (tool names, handles, snapshots, cost, `resolveProvider`): its class's
 * name and its id, with the id's type. Plain JSON. See "Provider identity" in docs/glossary.md.
 */
export interface ProviderIdentity {
  /**
   * The provider class's name (what `resolveProvider` receives): its source name, or the name the
   * generated schema module registered for it (`crm.Customer` when two classes share one).
   */
  readonly providerClass: string;
  /** The provider's id: a number for a number id, else text (a bigint's digits). */
  readonly id: string | number;
  /** The id's type: `1` and `"1"` (and `1n`) are different providers. */
  readonly idType: ProviderIdType;
}

/**
 * A provider tool's binding as plain JSON (what snapshots and pending approvals record): the provider's
 * identity and the method the tool runs.
 */
export interface ProviderToolIdentity extends ProviderIdentity {
  /** The method's name in the class (not the tool name, which may have been shortened or renamed). */
  readonly method: string;
}

/**
 * The provider a valid entity handle names: a {@link ProviderIdentity}, with the two fields this type had
 * before there was one identity type, kept so that code reading them still compiles.
 */
export interface HandleIdentity extends ProviderIdentity {
  /**
   * The provider class's name.
   *
   * @deprecated The same as `providerClass`.
   */
  readonly className: string;
  /**
   * The id with its type (`number:1`, `string:1`, `bigint:1`).
   *
   * @deprecated `instanceKeyOf(identity)` gives it.
   */
  readonly instanceKey: string;
}

/**
 * The identity of a class name and an id read from a provider (or passed to `resolveProvider`): the one
 * place an id becomes an identity.
 *
 * `-0` is the provider `0`. An identity is plain JSON, and JSON has no `-0` (`JSON.stringify(-0)` is `"0"`):
 * a `-0` kept apart in memory would turn into `0` at the first snapshot, MCP message or stored
 * conversation, and its tools would then name another provider. JavaScript agrees: `-0 === 0`, and a
 * `Map` or a `switch` finds the `0` entry for `-0`. A `-0` id is nearly always arithmetic's (`-x` of `0`)
 * for the entity whose id is `0`.
 */
export function identityOf(providerClass: string, id: string | number | bigint): ProviderIdentity {
  if (typeof id === "number") return { providerClass, id: Object.is(id, -0) ? 0 : id, idType: "number" };
  return { providerClass, id: String(id), idType: typeof id === "bigint" ? "bigint" : "string" };
}

/**
 * An identity's id with its type as one text: `number:1`, `string:1`, `bigint:1`. Names, handles and maps
 * tell providers apart by it, so ids that read the same as text stay apart (and `-0` is `0`: an identity
 * never holds `-0`).
 */
export function instanceKeyOf(identity: ProviderIdentity | Pick<ProviderIdentity, "id" | "idType">): string {
  return `${identity.idType}:${String(identity.id)}`;
}

/**
 * The one key of a provider: its class's name and its typed id (`Customer|string:c1`). Every map of
 * providers keys by it: the live providers behind handles and snapshots, the cost ledger, the discoveries
 * a run reports.
 */
export function providerKeyOf(identity: ProviderIdentity): string {
  return `${identity.providerClass}|${instanceKeyOf(identity)}`;
}

/** The identity of a class name and an `instanceKey` (the inverse of {@link instanceKeyOf}). */
export function identityOfKey(providerClass: string, instanceKey: string): ProviderIdentity {
  const cut = instanceKey.indexOf(":");
  const idType = instanceKey.slice(0, cut) as ProviderIdType;
  const text = instanceKey.slice(cut + 1);
  return { providerClass, id: idType === "number" ? Number(text) : text, idType };
}
