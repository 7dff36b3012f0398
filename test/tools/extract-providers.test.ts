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

  it("holds each identity once: the last instance, in the place of the first", () => {
    const older = new Order("o1", 10, "open");
    const newer = new Order("o1", 30, "shipped");
    expect(extractProviders([older, john, newer])).toEqual([newer, john]);
    // Another class with the same id, and ids of another type, are other identities; -0 is 0.
    const byNumber = (id: unknown) => new Order(id as string, 1, "open");
    const [one, oneText, zero, minusZero] = [byNumber(1), byNumber("1"), byNumber(0), byNumber(-0)];
    const c1 = new Customer("o1", "Ann", repo);
    expect(extractProviders([one, oneText, older, c1, zero, minusZero])).toEqual([
      one,
      oneText,
      older,
      c1,
      minusZero,
    ]);
    // Unusable ids are not one identity: each is skipped with its own notice when bound.
    const [noId, noIdEither] = [byNumber(undefined), byNumber(undefined)];
    expect(extractProviders([noId, noIdEither])).toEqual([noId, noIdEither]);
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
