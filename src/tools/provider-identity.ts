// The one provider-identity type (issue 39) and the one rule between it and the `instanceKey` text that
// names, handles and run-local maps use. Plain types and two pure functions: every layer may import it.

/** A provider id's type, as snapshots and handles record it (`1` and `"1"` are different providers). */
export type ProviderIdType = "string" | "number" | "bigint";

/**
 * What names one provider everywhere (tool names, handles, snapshots, cost, `resolveProvider`): its class's
 * source name and its id, with the id's type. Plain JSON. See "Provider identity" in docs/glossary.md.
 */
export interface ProviderIdentity {
  /** The provider class's source name (what `resolveProvider` receives). */
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
   * The provider class's source name.
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
 * An identity's id with its type as one text: `number:1`, `string:1`, `bigint:1` (`-0` stays `-0`). Names,
 * handles and run-local maps key providers by it, so ids that read the same as text stay apart.
 */
export function instanceKeyOf(identity: ProviderIdentity | Pick<ProviderIdentity, "id" | "idType">): string {
  const { id, idType } = identity;
  return `${idType}:${Object.is(id, -0) ? "-0" : String(id)}`;
}

/** The identity of a class source name and an `instanceKey` (the inverse of {@link instanceKeyOf}). */
export function identityOfKey(providerClass: string, instanceKey: string): ProviderIdentity {
  const cut = instanceKey.indexOf(":");
  const idType = instanceKey.slice(0, cut) as ProviderIdType;
  const text = instanceKey.slice(cut + 1);
  return { providerClass, id: idType === "number" ? Number(text) : text, idType };
}
