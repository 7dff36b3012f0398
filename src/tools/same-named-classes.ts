import { sourceNameOf } from "../schema/schema-store.js";
import { InvalidToolProviderError } from "./errors.js";
import { providerOptionsOf } from "./read-provider-id.js";

/**
 * The one rule for provider classes that share a source name (two bounded contexts' `Customer`): a handle,
 * a snapshot entry and `resolveProvider` name a class by its source name, so two such classes could not
 * be told apart, and one's handle would run the other's method. Where handles are used, the second class
 * to claim a name is refused with an error that names both.
 */
export class SourceNameClaims {
  private readonly byName = new Map<string, Function>();

  /**
   * Claims `providerClass`'s source name and returns it.
   *
   * @throws InvalidToolProviderError when another class already holds the name.
   */
  claim(providerClass: Function): string {
    const name = sourceNameOf(providerClass);
    const holder = this.byName.get(name);
    if (holder === undefined) this.byName.set(name, providerClass);
    else if (holder !== providerClass) throw sameNameError(providerClass, holder, name);
    return name;
  }

  /** Claims every class of a list (what a run or server knows up front); throws on the first clash. */
  static claimAll(classes: readonly Function[]): SourceNameClaims {
    const claims = new SourceNameClaims();
    for (const cls of classes) claims.claim(cls);
    return claims;
  }
}

function sameNameError(providerClass: Function, holder: Function, name: string): InvalidToolProviderError {
  const prefixes = [holder, providerClass].map((cls) => `"${providerOptionsOf(cls)?.prefix ?? "?"}"`);
  return new InvalidToolProviderError(
    providerClass,
    `another @ToolProvider class is also named ${name} (prefixes ${prefixes.join(" and ")}), and handles ` +
      "name a class by its source name, so one's handle could run the other's methods. Give the classes " +
      "different names (class CrmCustomer, class BillingCustomer)",
  );
}
