import { sourceNameOf } from "../schema/schema-store.js";
import { InvalidToolProviderError } from "./errors.js";
import { providerOptionsOf } from "./read-provider-id.js";

/**
 * The one rule for provider classes that share a name (two bounded contexts' `Customer`): a handle, a
 * snapshot entry, an event, a cost entry and `resolveProvider` name a class by its name (`sourceNameOf`).
 * The generated schema module registers same-named classes under names of their own (`crm.Customer`,
 * `billing.Customer`), and then nothing clashes. Two classes still sharing one (no module registered them)
 * could not be told apart (one's handle would run the other's method; a snapshot would restore one of them
 * for both), so within a run (or server) the second class to claim the name is refused, in both binding
 * modes, with an error that names both and says how to register them.
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
    `another @ToolProvider class is also named ${name} (prefixes ${prefixes.join(" and ")}), and a run names ` +
      "a provider's class by its name (in events, cost, snapshots, resolveProvider and handles), so the two " +
      "could not be told apart. Register the generated " +
      `schema module (npx entity-tools schemas names them ${prefixes.map((p) => `${p.slice(1, -1)}.${name}`).join(" and ")}), ` +
      "or give the classes names of their own in registerToolSchemas({ classes })",
  );
}
