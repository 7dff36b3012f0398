import { describe, expect, it } from "vitest";
import { isToolProvider } from "entity-tools";
import { extractProviders } from "../../src/tools/extract-providers.js";
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
