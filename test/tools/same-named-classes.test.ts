// Two bounded contexts' `Customer` classes in one handles-mode run: a handle names a class by its source
// name, so the second class to appear is refused (at setup when both are known up front) instead of one
// class's handle running the other's method.
import { describe, expect, it } from "vitest";
import {
  EntityHandleCodec,
  HandleBindings,
  InvalidToolProviderError,
  LlmTool,
  PromptRunner,
  ToolProvider,
  handleToolsOf,
} from "entity-tools";
import { call, mockModel, offeredAt, text, toolResultsSeenAt } from "../support/mock-model.js";

const ran: string[] = [];

const crm = (() => {
  @ToolProvider({ prefix: "crm" })
  class Customer {
    constructor(public id: string) {}
    @LlmTool({ description: "Close the CRM account", needsApproval: true })
    close(): string {
      ran.push(`crm close ${this.id}`);
      return "crm closed";
    }
  }
  return Customer;
})();

const billing = (() => {
  @ToolProvider({ prefix: "billing" })
  class Customer {
    constructor(public id: string) {}
    @LlmTool("Close the billing account")
    close(): string {
      ran.push(`billing close ${this.id}`);
      return "billing closed";
    }
  }
  return Customer;
})();

class Directory {
  @LlmTool("Find customer c1 in both systems")
  find(): object[] {
    return [new crm("c1"), new billing("c1")];
  }
}

describe("two provider classes with the same source name, in handles mode", () => {
  it("are refused at setup when both are known up front, naming both prefixes", () => {
    const setup = () =>
      new PromptRunner({ model: mockModel() }).withToolProviderDiscovery({
        binding: "handles",
        classes: [crm, billing],
      });
    expect(setup).toThrow(InvalidToolProviderError);
    expect(setup).toThrow(
      /another @ToolProvider class is also named Customer \(prefixes "crm" and "billing"\)/,
    );
  });

  it("the second one discovered gets no handle: the model is told, and no call reaches the other class", async () => {
    ran.length = 0;
    const codec = new EntityHandleCodec("a-handle-key-of-16-bytes");
    const crmHandle = codec.handleOf(new crm("c1"));
    const model = mockModel(
      call("find", {}),
      call("billing_close", { handle: crmHandle }),
      call("crm_close", { handle: crmHandle }),
      text("done"),
    );
    const result = await new PromptRunner({ model })
      .withTools(new Directory())
      .withToolProviderDiscovery({ binding: "handles", handleKey: "a-handle-key-of-16-bytes" })
      .run("close c1 in billing");
    expect(toolResultsSeenAt(model, 1)[0]).toContain(
      "Cannot expose tools of Customer: another @ToolProvider class is also named Customer",
    );
    expect(offeredAt(model, 1)).toContain("crm_close");
    expect(offeredAt(model, 1)).not.toContain("billing_close");
    expect(toolResultsSeenAt(model, 2)[1]).toContain('Unknown tool "billing_close"');
    // the CRM close needs approval: the run pauses instead of running it
    expect(result.status).toBe("awaiting-approval");
    expect(ran).toEqual([]);
  });

  it("handle tools of a same-named class on one bindings object refuse every handle", () => {
    const bindings = new HandleBindings(new EntityHandleCodec("a-handle-key-of-16-bytes"));
    const { handle } = bindings.remember(new crm("c1"));
    const [close] = handleToolsOf(billing, bindings);
    expect(close!.checkInput!({ handle })).toContain("another @ToolProvider class is also named Customer");
  });

  it("resolveProvider answering with the other same-named class is refused", async () => {
    const handle = new EntityHandleCodec("a-handle-key-of-16-bytes").handleOf(new billing("c9"));
    const bindings = new HandleBindings(
      new EntityHandleCodec("a-handle-key-of-16-bytes"),
      () => new crm("c9"),
    );
    const [close] = handleToolsOf(billing, bindings);
    await expect(bindings.bind(handle, billing)).rejects.toThrow(
      "resolveProvider returned another class that is also named Customer",
    );
    expect(close!.name).toBe("billing_close");
    expect(ran).toEqual([]);
  });
});
