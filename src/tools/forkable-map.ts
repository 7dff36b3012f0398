/**
 * A `Map` that its forks share until one side writes: the writer copies it first, so a fork costs nothing
 * and a write after it one copy. What lets a registry of thousands of tools be forked for each MCP call
 * (see `ToolRegistry.fork`), paying only for the maps a call changes. The reads are `Map`'s own.
 */
export class ForkableMap<K, V> {
  /** Whether another `ForkableMap` reads `map` too (then neither may write it). */
  private shared = false;

  constructor(private map: Map<K, V> = new Map()) {}

  get size(): number {
    return this.map.size;
  }

  get(key: K): V | undefined {
    return this.map.get(key);
  }

  has(key: K): boolean {
    return this.map.has(key);
  }

  keys(): IterableIterator<K> {
    return this.map.keys();
  }

  values(): IterableIterator<V> {
    return this.map.values();
  }

  set(key: K, value: V): void {
    this.own().set(key, value);
  }

  delete(key: K): boolean {
    return this.map.has(key) && this.own().delete(key);
  }

  /** A map with these entries; what either does from now on the other does not see. */
  fork(): ForkableMap<K, V> {
    this.shared = true;
    const fork = new ForkableMap(this.map);
    fork.shared = true;
    return fork;
  }

  private own(): Map<K, V> {
    if (this.shared) {
      this.map = new Map(this.map);
      this.shared = false;
    }
    return this.map;
  }
}
