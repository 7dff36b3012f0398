import { describe, expect, it } from "vitest";
import { isToolProvider } from "entity-tools";
import { extractProviders, FirstOfEachIdentity } from "../../src/tools/extract-providers.js";
import { readProviderId } from "../../src/tools/read-provider-id.js";
import { Customer, Order, OrderRepository } from "../fixtures/shop.js";

const repo = new OrderRepository();
const john = new Customer("c1", "John", repo);
const jane = new Customer("c2", "Jane", repo);
const order = new Order("o1", 10, "open");

describe("extractProviders", () => {
  it("finds the value itself", () => {
    expect(isToolProvider(john)).toBe(true);
    expect(extractProviders(john)).toEqual([john]);
  });

  it("finds the providers among arrays, Sets and Map values, in order, each once", () => {
    expect(extractProviders([john, "text", 3, null, order, john])).toEqual([john, order]);
    expect(extractProviders(new Set([jane, john]))).toEqual([jane, john]);
    expect(extractProviders(new Map([["a", order]]))).toEqual([order]);
  });

  it("keeps two instances of one identity (binding keeps the first: FirstOfEachIdentity)", () => {
    const later = new Order("o1", 30, "shipped");
    expect(extractProviders([order, john, later])).toEqual([order, john, later]);
  });

  it("walks custom re-iterable collections but never consumes a one-shot iterator", () => {
    const collection = {
      *[Symbol.iterator]() {
        yield john;
        yield jane;
      },
    };
    expect(extractProviders(collection)).toEqual([john, jane]);
    const generator = (function* () {
      yield john;
    })();
    expect(extractProviders(generator)).toEqual([]);
    expect([...generator]).toEqual([john]);
  });

  it("does not walk fields of plain objects or providers", () => {
    expect(extractProviders({ customers: [john] })).toEqual([]);
    const withNested = Object.assign(new Order("o2", 1, "open"), { owner: john });
    expect(extractProviders(withNested)).toEqual([withNested]);
  });

  it("finds nothing in primitives and non-providers", () => {
    for (const value of [undefined, null, 1, "customer", repo, [repo], new Date()]) {
      expect(extractProviders(value)).toEqual([]);
    }
  });
});

describe("FirstOfEachIdentity", () => {
  const identity = (provider: object) => readProviderId(provider).identity;
  const byId = (id: unknown) => new Order(id as string, 1, "open");

  it("binds the first instance of each identity (class and typed id, -0 being 0) and tells the model of the rest", () => {
    const bound = new FirstOfEachIdentity();
    const firsts = [order, new Customer("o1", "Ann", repo), byId(1), byId("1"), byId(1n), byId(0)];
    expect(firsts.map((p) => bound.first(identity(p)))).toEqual(firsts.map(() => true));
    expect(bound.notice("tools")).toBeUndefined();
    const repeats = [new Order("o1", 30, "shipped"), byId(-0), byId(1), new Order("o1", 40, "open")];
    expect(repeats.map((p) => bound.first(identity(p)))).toEqual(repeats.map(() => false));
    expect(bound.notice("tools")).toBe(
      "Order o1, Order 0, Order 1 are each in this result more than once: each one's tools work on its " +
        "first instance in the result, not on the later ones.",
    );
    const one = new FirstOfEachIdentity();
    one.first(identity(order));
    one.first(identity(new Order("o1", 30, "shipped")));
    expect(one.notice("handle")).toBe(
      "Order o1 is in this result more than once: its handle works on its first instance in the result, " +
        "not on the later ones.",
    );
  });
});
