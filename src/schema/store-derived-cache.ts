// What is read from the schema store once per key (a class's tool methods, its provider options) and
// kept: a registration (`registerToolSchemas`) may change any of it, so the whole cache is forgotten when
// the store's version moved, and the next read is made from the store as it is now.
import { schemaStoreVersion } from "./schema-store.js";

/** A per-key cache of values made from the schema store, valid until the next registration. */
export class StoreDerivedCache<K extends object, V> {
  private values = new WeakMap<K, V>();
  private version = schemaStoreVersion();

  /** The value of `key`, made by `make` when none was made since the last registration. */
  get(key: K, make: (key: K) => V): V {
    if (this.version !== schemaStoreVersion()) {
      this.values = new WeakMap();
      this.version = schemaStoreVersion();
    }
    const known = this.values.get(key);
    if (known !== undefined || this.values.has(key)) return known as V;
    const value = make(key);
    this.values.set(key, value);
    return value;
  }
}
