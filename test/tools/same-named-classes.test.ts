// Two bounded contexts' `Customer` classes (test/fixtures/contexts): the generated module registers them as
// crm.Customer and billing.Customer, and that name is the class's everywhere (handles, snapshots,
// resolveProvider), in both binding modes. A handle of one never runs the other's method. Classes that
// no module told apart still share a name: both modes refuse the second one to claim it in a run.
import "../fixtures/contexts/register.js";
import { beforeEach, describe, expect, it, vi } from "vitest";
import {
  EntityHandleCodec,
  HandleBindings,
  InvalidToolProviderError,
  LlmTool,
  PromptRunner,
  ToolProvider,
  handleToolsOf,
  type RunSnapshot,
  type ToolLoopEvent,
  type ToolProviderDiscoveredEvent,
} from "entity-tools";
import { Customer as BillingCustomer } from "../fixtures/contexts/billing/customer.js";
import { Customer as CrmCustomer } from "../fixtures/contexts/crm/customer.js";
import { Directory } from "../fixtures/contexts/directory.js";
import { ran } from "../fixtures/contexts/ran.js";
import { call, mockModel, offeredAt, text, toolResultsSeenAt, type MockTurn } from "../support/mock-model.js";

const handleKey = "a-handle-key-of-16-bytes";
const codec = new EntityHandleCodec(handleKey);
const handles = {
  crm: codec.mint({ providerClass: "crm.Customer", id: "c1", idType: "string" }),
  billing: codec.mint({ providerClass: "billing.Customer", id: "c1", idType: "string" }),
};
type Context = keyof typeof handles;
type Mode = "per-instance" | "handles";

/** A call of a context's customer c1 method, as each mode names it. */
const callOf = (mode: Mode, context: Context, method: string, input: object = {}): MockTurn =>
  mode === "handles"
    ? call(`${context}_${method}`, { handle: handles[context], ...input })
    : call(`${context}_c1_${method}`, input);

const runner = (mode: Mode, model: ReturnType<typeof mockModel>, events: ToolLoopEvent[] = []) =>
  new PromptRunner({ model })
    .withTools(new Directory())
    .withToolProviderDiscovery({ binding: mode, handleKey })
    .withObserver((e) => events.push(e));

beforeEach(() => {
  ran.length = 0;
});

describe.each(["per-instance", "handles"] as const)("two contexts' Customer in %s mode", (mode) => {
  it("both are discovered under their own names; each call runs its own class's method with its own Address", async () => {
    const events: ToolLoopEvent[] = [];
    const model = mockModel(
      call("find", { id: "c1" }),
      callOf(mode, "crm", "moveTo", { address: { city: "Oslo" } }),
      callOf(mode, "billing", "invoiceTo", { address: { street: "Main St" } }),
      callOf(mode, "billing", "close"),
      callOf(mode, "crm", "close"),
    );
    const run = await runner(mode, model, events).run("move and close c1");
    const discovered = events.filter(
      (e): e is ToolProviderDiscoveredEvent => e.type === "ToolProviderDiscovered",
    );
    expect(discovered.map((e) => e.identity.providerClass)).toEqual(["crm.Customer", "billing.Customer"]);
    if (mode === "handles") {
      expect(discovered.map((e) => e.handle)).toEqual([handles.crm, handles.billing]);
      expect(toolResultsSeenAt(model, 1)[0]).toContain(`crm.Customer handle ["${handles.crm}"]`);
    } else {
      expect(offeredAt(model, 1)).toEqual(
        expect.arrayContaining(["crm_c1_close", "crm_c1_moveTo", "billing_c1_close", "billing_c1_invoiceTo"]),
      );
    }
    expect(toolResultsSeenAt(model, 4).slice(-3)).toEqual([
      "crm c1 moved to Oslo (a CRM Address)",
      "billing c1 invoices to Main St (a billing Address)",
      "billing c1 closed",
    ]);
    // The CRM close needs approval: the run pauses before it, and names its class.
    expect(run.status).toBe("awaiting-approval");
    expect(run.pendingApprovals.map((p) => p.provider)).toEqual([
      { providerClass: "crm.Customer", id: "c1", idType: "string", method: "close" },
    ]);
    expect(ran).toEqual(["crm move c1", "billing invoice c1", "billing close c1"]);
  });

  it("a snapshot read back from JSON names each class by its registered name: resolveProvider tells them apart", async () => {
    const first = await runner(mode, mockModel(call("find", { id: "c1" }), text("found"))).run("find c1");
    const snapshot = JSON.parse(JSON.stringify(first.snapshot)) as RunSnapshot;
    const resolveProvider = vi.fn((providerClass: string, id: string | number | bigint) => {
      switch (providerClass) {
        case "crm.Customer":
          return new CrmCustomer(String(id));
        case "billing.Customer":
          return new BillingCustomer(String(id));
        default:
          return undefined;
      }
    });
    const model = mockModel(callOf(mode, "billing", "close"), callOf(mode, "crm", "close"));
    const next = await runner(mode, model).run("close c1 in billing, then in the CRM", {
      continueFrom: snapshot,
      resolveProvider,
    });
    expect(toolResultsSeenAt(model, 1).at(-1)).toBe("billing c1 closed");
    expect(next.status).toBe("awaiting-approval");
    expect(ran).toEqual(["billing close c1"]);
    expect(resolveProvider.mock.calls.map(([cls]) => cls)).toEqual(
      // handles mode binds on use (the CRM close waits for approval first); per-instance restores both
      mode === "handles" ? ["billing.Customer"] : ["crm.Customer", "billing.Customer"],
    );
  });
});

describe("two contexts' Customer in handles mode", () => {
  it("a handle of one is refused by the other's tools: nothing runs, and the CRM close is not even asked about", async () => {
    const model = mockModel(
      call("find", { id: "c1" }),
      call("billing_close", { handle: handles.crm }),
      call("crm_close", { handle: handles.billing }),
      text("done"),
    );
    const run = await runner("handles", model).run("close c1");
    expect(toolResultsSeenAt(model, 3).slice(-2)).toEqual([
      expect.stringContaining(
        `is of class crm.Customer, and this tool takes handles of class billing.Customer`,
      ),
      expect.stringContaining(
        `is of class billing.Customer, and this tool takes handles of class crm.Customer`,
      ),
    ]);
    expect(run.status).toBe("completed");
    expect(ran).toEqual([]);
  });

  it("resolveProvider answering with the other context's class is refused; nothing runs", async () => {
    const bindings = new HandleBindings(codec, () => new CrmCustomer("c1"));
    await expect(bindings.bind(handles.billing, BillingCustomer)).rejects.toThrow(
      "resolveProvider returned an object of class crm.Customer, not of class billing.Customer",
    );
    expect(ran).toEqual([]);
  });
});

// Two classes that no generated module told apart: both are named Customer.
const unregistered = (prefix: string) => {
  @ToolProvider({ prefix })
  class Customer {
    constructor(public id: string) {}
    @LlmTool("Close the account")
    close(): string {
      ran.push(`${prefix} close ${this.id}`);
      return `${prefix} closed`;
    }
  }
  return Customer;
};
const [sales, support] = [unregistered("sales"), unregistered("support")];

describe("same-named classes no module registered, in handles mode", () => {
  it("are refused at setup when both are known up front, saying how to register them", () => {
    const setup = () =>
      new PromptRunner({ model: mockModel() }).withToolProviderDiscovery({
        binding: "handles",
        classes: [sales, support],
      });
    expect(setup).toThrow(InvalidToolProviderError);
    expect(setup).toThrow(
      /another @ToolProvider class is also named Customer \(prefixes "sales" and "support"\).*npx entity-tools schemas names them sales\.Customer and support\.Customer/,
    );
  });

  it("handle tools of the second class refuse every handle", () => {
    const bindings = new HandleBindings(codec);
    const { handle } = bindings.remember(new sales("c1"));
    const [close] = handleToolsOf(support, bindings);
    expect(close!.checkInput!({ handle })).toContain("another @ToolProvider class is also named Customer");
    expect(ran).toEqual([]);
  });

  it("resolveProvider answering with the other same-named class is refused; nothing runs", async () => {
    const handle = codec.handleOf(new support("c9"));
    const bindings = new HandleBindings(codec, () => new sales("c9"));
    await expect(bindings.bind(handle, support)).rejects.toThrow(
      "resolveProvider returned another class that is also named Customer",
    );
    expect(ran).toEqual([]);
  });
});

// A tool that returns only the support customer c2.
class SupportDesk {
  @LlmTool({ description: "Find a support customer", parameters: { type: "object", properties: {} } })
  findSupport(): object {
    return new support("c2");
  }
}

// A tool that returns both unregistered classes' customer of one id.
class Lookup {
  @LlmTool({
    description: "Find a customer in sales and in support",
    parameters: { type: "object", properties: { id: { type: "string" } }, required: ["id"] },
  })
  find(id: string): object[] {
    return [new sales(id), new support(id)];
  }
}

describe("same-named classes no module registered, in per-instance mode", () => {
  const lookupRunner = (model: ReturnType<typeof mockModel>, events: ToolLoopEvent[] = []) =>
    new PromptRunner({ model })
      .withTools(new Lookup())
      .withToolProviderDiscovery()
      .withObserver((e) => events.push(e));

  it("the second class gets no tools and the model reads why and how to register them; events and the snapshot name one Customer", async () => {
    const events: ToolLoopEvent[] = [];
    const model = mockModel(call("find", { id: "c1" }), call("sales_c1_close"), text("done"));
    const run = await lookupRunner(model, events).run("close c1");
    expect(offeredAt(model, 1)).toEqual(["find", "sales_c1_close"]);
    expect(toolResultsSeenAt(model, 1)[0]).toMatch(
      /another @ToolProvider class is also named Customer \(prefixes "sales" and "support"\).*npx entity-tools schemas names them sales\.Customer and support\.Customer/,
    );
    const discovered = events.filter(
      (e): e is ToolProviderDiscoveredEvent => e.type === "ToolProviderDiscovered",
    );
    expect(discovered.map((e) => [e.identity.providerClass, e.exposedTools])).toEqual([
      ["Customer", ["sales_c1_close"]],
    ]);
    expect(run.snapshot.tools.filter((t) => "providerClass" in t)).toEqual([
      { name: "sales_c1_close", providerClass: "Customer", id: "c1", idType: "string", method: "close" },
    ]);
    expect(ran).toEqual(["sales close c1"]);
  });

  it("names are claimed per run: the next run of the runner binds the class it finds", async () => {
    const model = mockModel(
      call("find", { id: "c1" }),
      text("found"),
      call("findSupport"),
      call("support_c2_close"),
      text("done"),
    );
    const runner = lookupRunner(model).withTools(new SupportDesk());
    await runner.run("find c1");
    await runner.run("close c2");
    expect(offeredAt(model, 3)).toContain("support_c2_close");
    expect(ran).toEqual(["support close c2"]);
  });

  it("a run that continues another holds the classes it restored: a same-named class it finds is refused", async () => {
    const first = await lookupRunner(mockModel(call("find", { id: "c1" }), text("found"))).run("find c1");
    const snapshot = JSON.parse(JSON.stringify(first.snapshot)) as RunSnapshot;
    const model = mockModel(call("findSupport"), text("done"));
    await lookupRunner(model)
      .withTools(new SupportDesk())
      .run("find the support customer", {
        continueFrom: snapshot,
        resolveProvider: (_, id) => new sales(String(id)),
      });
    expect(offeredAt(model, 0)).toContain("sales_c1_close");
    expect(offeredAt(model, 1)).not.toContain("support_c2_close");
    expect(toolResultsSeenAt(model, 1).at(-1)).toContain(
      "another @ToolProvider class is also named Customer",
    );
  });
});
