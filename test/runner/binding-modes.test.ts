import "../fixtures/register.js";
import { readFileSync } from "node:fs";
import { beforeEach, describe, expect, it } from "vitest";
import {
  EntityHandleCodec,
  InvalidToolProviderError,
  LlmTool,
  PromptRunner,
  ToolProvider,
  type DiscoveryOptions,
  type RunSnapshot,
  type ToolLoopEvent,
  type ToolProviderDiscoveredEvent,
} from "entity-tools";
import { Account, AccountNote, Bank, ran } from "../fixtures/bank.js";
import { Customer, OrderRepository } from "../fixtures/shop.js";
import { call, mockModel, offeredAt, text, toolResultsSeenAt, type MockTurn } from "../support/mock-model.js";

const KEY = "binding-modes-test-key";

/** A provider class no generated module knows (test files are outside the fixtures' schema project). */
@ToolProvider({ prefix: "ticket" })
class Ticket {
  constructor(public id: string) {}
  @LlmTool("Close this ticket")
  close(): string {
    return `closed ${this.id}`;
  }
  @LlmTool({
    description: "Assign this ticket",
    parameters: { type: "object", properties: { to: { type: "string" } }, required: ["to"] },
  })
  assign(to: string): string {
    const version = (this as { version?: number }).version;
    return `${this.id}${version ? ` (v${version})` : ""} → ${to}`;
  }
}

class Desk {
  @LlmTool("Open tickets")
  openTickets(): Ticket[] {
    return [new Ticket("t1"), new Ticket("t2")];
  }
}
const codec = new EntityHandleCodec(KEY);
const handleOf = (provider: object) => codec.handleOf(provider);

beforeEach(() => {
  ran.length = 0;
});

type Binding = "per-instance" | "handles";

/** The call of a provider's operation in each mode: its own name, or the class tool with its handle. */
function operation(binding: Binding, account: Account, method: string, input: object = {}): MockTurn {
  return binding === "handles"
    ? call(`account_${method}`, { handle: handleOf(account), ...input })
    : call(`account_${String(account.id)}_${method}`, input);
}

function runner(model: ReturnType<typeof mockModel>, bank: Bank, options: DiscoveryOptions = {}) {
  return new PromptRunner({ model })
    .withTools(bank)
    .withToolProviderDiscovery({ handleKey: KEY, ...options });
}

describe.each<Binding>(["per-instance", "handles"])("discovery with %s binding", (binding) => {
  it("a discovered provider's operation runs on that very instance, and the model reads its result", async () => {
    const bank = new Bank();
    const model = mockModel(
      call("findAccounts", { owner: "Bob" }),
      operation(binding, bank.accounts[1]!, "getBalance"),
      text("Bob has 50"),
    );
    const run = await runner(model, bank, { binding }).run("Bob's balance?");
    expect(run.result).toBe("Bob has 50");
    expect(ran).toEqual(["getBalance 2"]);
    expect(toolResultsSeenAt(model, 2).at(-1)).toBe("50");
    expect(run.counters.providersDiscovered).toBe(1);
  });

  it("a call that needs approval pauses the run, and runs once approved on resume", async () => {
    const bank = new Bank();
    const model = mockModel(
      call("findAccounts", { owner: "Bob" }),
      operation(binding, bank.accounts[1]!, "withdraw", { amount: 20 }),
      text("done"),
    );
    const paused = await runner(model, bank, { binding }).run("Take 20 from Bob");
    expect(paused.status).toBe("awaiting-approval");
    expect(ran).toEqual([]);
    const approvalId = paused.pendingApprovals[0]!.approvalId;
    const resumed = await runner(model, bank, { binding }).resume(paused.snapshot, {
      approvals: { [approvalId]: { approved: true } },
      resolveProvider: (_, id) => bank.accounts.find((a) => a.id === id),
    });
    expect(resumed.result).toBe("done");
    expect(ran).toEqual(["withdraw 2 20"]);
    // The resumed run lists what it added before the pause: Bob's tools per instance; with handles, none.
    const names = (run: typeof paused) => run.injectedTools.map((t) => t.name);
    expect(names(resumed)).toEqual(names(paused));
    expect(names(paused).length > 0).toBe(binding === "per-instance");
  });
  it("middleware wraps the call with its tool and input; a timeout turns a slow call into an error result", async () => {
    const bank = new Bank();
    const seen: string[] = [];
    const model = mockModel(
      call("findAccounts", { owner: "Bob" }),
      operation(binding, bank.accounts[1]!, "getBalance"),
      text("ok"),
    );
    await runner(model, bank, { binding })
      .withToolMiddleware(async (info, next) => {
        seen.push(`${info.tool.name} ${JSON.stringify(info.input)}`);
        if (info.tool.name.endsWith("getBalance")) await new Promise((r) => setTimeout(r, 200));
        // A well-behaved slow tool stops when its signal says the call was given up.
        return info.context.signal.aborted ? undefined : next();
      })
      .withToolTimeout(50)
      .run("?");
    expect(seen.at(-1)).toBe(
      binding === "handles"
        ? `account_getBalance ${JSON.stringify({ handle: handleOf(bank.accounts[1]!) })}`
        : "account_2_getBalance {}",
    );
    expect(toolResultsSeenAt(model, 2).at(-1)).toMatch(/did not finish within 50 ms/);
    expect(ran).toEqual([]);
  });
});

describe("handles mode", () => {
  const options: DiscoveryOptions = { binding: "handles", classes: [Account, AccountNote] };

  it("offers the same tools at every step when the classes are known, and injects nothing", async () => {
    const bank = new Bank();
    const events: ToolLoopEvent[] = [];
    const model = mockModel(
      call("findAccounts", { owner: "Ann" }),
      call("notes"),
      operation("handles", bank.accounts[0]!, "getBalance"),
      text("ok"),
    );
    const run = await runner(model, bank, options)
      .withObserver((e) => events.push(e))
      .run("Ann?");
    const first = offeredAt(model, 0);
    expect(first).toEqual([
      "findAccounts",
      "byOwner",
      "notes",
      "account_getBalance",
      "account_withdraw",
      expect.stringMatching(/^account_read/),
    ]);
    for (let i = 1; i < 4; i++) expect(offeredAt(model, i)).toEqual(first);
    expect(run.injectedTools).toEqual([]);
    expect(events.filter((e) => e.type === "ToolsInjected")).toEqual([]);
    const discovered = events.filter(
      (e): e is ToolProviderDiscoveredEvent => e.type === "ToolProviderDiscovered",
    );
    expect(discovered.map((e) => [e.providerClass, e.instanceId, e.handle])).toEqual([
      [Account, "1", handleOf(bank.accounts[0]!)],
      [Account, "1", handleOf(bank.accounts[2]!)],
      [AccountNote, "1", expect.stringMatching(/^AccountNote#1~/)],
    ]);
    expect(discovered[0]!.exposedTools).toEqual(["account_getBalance", "account_withdraw"]);
  });

  it("the result the model reads carries each provider's handle and its class's operations", async () => {
    const bank = new Bank();
    const model = mockModel(call("findAccounts", { owner: "Ann" }), text("ok"));
    await runner(model, bank, options).run("Ann?");
    const seen = toolResultsSeenAt(model, 1)[0]!;
    expect(seen).toContain(
      `[Account handles ${JSON.stringify([handleOf(bank.accounts[0]!), handleOf(bank.accounts[2]!)])}; ` +
        'operations: account_getBalance, account_withdraw; pass a handle as "handle".]',
    );
    expect(seen).not.toContain("0000");
  });

  it("by default the classes come from the generated schema module: what the tools can return", async () => {
    const model = mockModel(call("findAccounts", { owner: "Ann" }), text("ok"));
    const run = await runner(model, new Bank(), { binding: "handles" }).run("Ann?");
    expect(offeredAt(model, 0)).toEqual([
      "findAccounts",
      "byOwner",
      "notes",
      "account_getBalance",
      "account_withdraw",
      "account_read",
    ]);
    expect(offeredAt(model, 1)).toEqual(offeredAt(model, 0));
    expect(run.injectedTools).toEqual([]);
  });

  it("a class known neither way has its tools join once, at its first discovery, in method order", async () => {
    const desk = new Desk();
    const model = mockModel(call("openTickets"), call("openTickets"), text("ok"));
    const run = await new PromptRunner({ model })
      .withTools(desk)
      .withToolProviderDiscovery({ binding: "handles" })
      .run("Tickets?");
    expect(offeredAt(model, 0)).toEqual(["openTickets"]);
    expect(offeredAt(model, 1)).toEqual(["openTickets", "ticket_close", "ticket_assign"]);
    expect(offeredAt(model, 2)).toEqual(offeredAt(model, 1));
    expect(run.injectedTools.map((t) => t.name)).toEqual(["ticket_close", "ticket_assign"]);
  });

  describe("a handle that cannot be used is an error result, and nothing runs", () => {
    const bank = new Bank();
    const real = handleOf(bank.accounts[1]!);
    const cases: [string, unknown, string][] = [
      ["a forged one", real.replace("Account#2", "Account#3"), "has a signature this runner did not make"],
      [
        "another key's",
        new EntityHandleCodec("another-handle-key-entirely").handleOf(bank.accounts[1]!),
        "minted with another handleKey",
      ],
      ["a malformed one", "Account#2", 'is not a handle: it does not end in "~"'],
      ["a number", 2, 'field "handle" must be string'],
      [
        "another class's",
        handleOf(new AccountNote(2)),
        "is of class AccountNote, and this tool takes handles of class Account",
      ],
    ];
    it.each(cases)("%s", async (_, handle, why) => {
      const model = mockModel(
        call("findAccounts", { owner: "Bob" }),
        call("account_withdraw", { handle, amount: 5 }),
        text("ok"),
      );
      const run = await runner(model, bank, options).run("Take 5 from Bob");
      expect(run.status).toBe("completed"); // refused before the approval: no person is asked
      const refusal = toolResultsSeenAt(model, 2).at(-1)!;
      expect(refusal).toContain('Invalid arguments for "account_withdraw"');
      expect(refusal).toContain(why);
      expect(ran).toEqual([]);
    });

    it("a valid handle this run never saw, with no resolveProvider", async () => {
      const model = mockModel(call("account_getBalance", { handle: real }), text("ok"));
      await runner(model, bank, options).run("?");
      expect(toolResultsSeenAt(model, 1)[0]).toContain(
        "is valid, but Account 2 is not available: it was not found in this run and no resolveProvider was given",
      );
      expect(ran).toEqual([]);
    });
  });

  it("a handle minted by one runner is re-bound in a fresh runner through resolveProvider", async () => {
    const first = new Bank();
    const handle = handleOf(first.accounts[1]!);
    const elsewhere = new Bank(); // another process's copy of the data
    const asked: unknown[] = [];
    const model = mockModel(call("account_getBalance", { handle }), text("ok"));
    await runner(model, elsewhere, {
      ...options,
      resolveProvider: (cls, id) => {
        asked.push([cls, id]);
        return elsewhere.accounts.find((a) => a.id === id);
      },
    }).run("?");
    expect(asked).toEqual([["Account", 2]]);
    expect(toolResultsSeenAt(model, 1)[0]).toBe("50");
  });

  it.each([
    [
      "another class",
      () => new AccountNote(2),
      "resolveProvider returned an object of class AccountNote, not of class Account",
    ],
    ["another id", () => new Account(3, "Cy", 1), "resolveProvider returned the one with id 3, not 2"],
    ["the same id as text", () => new Account("2", "Bob", 1), 'returned the one with id "2", not 2'],
  ])("a resolver returning %s is refused", async (_, resolved, why) => {
    const handle = handleOf(new Bank().accounts[1]!);
    const model = mockModel(call("account_getBalance", { handle }), text("ok"));
    await runner(model, new Bank(), { ...options, resolveProvider: resolved }).run("?");
    expect(toolResultsSeenAt(model, 1)[0]).toContain(why);
    expect(ran).toEqual([]);
  });

  it("input reaches the method with its declared types (a Date), and the handle is not an argument", async () => {
    const customer = new Customer("c1", "Ann", new OrderRepository());
    const model = mockModel(
      call("customer_findOrders", {
        handle: handleOf(customer),
        statuses: ["open"],
        since: "2026-01-02T00:00:00.000Z",
      }),
      text("ok"),
    );
    await new PromptRunner({ model })
      .withToolProviderDiscovery({
        binding: "handles",
        classes: [Customer],
        handleKey: KEY,
        resolveProvider: () => customer,
      })
      .run("?");
    expect(toolResultsSeenAt(model, 1)[0]).toBe("open since 2026-01-02T00:00:00.000Z to anywhere");
  });

  it('1 and "1" are different providers, each with its own handle', async () => {
    const bank = new Bank();
    const [numberOne, , textOne] = bank.accounts;
    const model = mockModel(
      call("findAccounts", { owner: "Ann" }),
      operation("handles", textOne!, "getBalance"),
      operation("handles", numberOne!, "getBalance"),
      text("ok"),
    );
    await runner(model, bank, options).run("Ann's balances");
    expect(ran).toEqual(["getBalance 1", "getBalance 1"]);
    expect(toolResultsSeenAt(model, 3).slice(-2)).toEqual(["7", "100"]);
  });

  it("the newest instance of an identity wins, and its discovery says it replaced the older one", async () => {
    let version = 0;
    const desk = { openTickets: () => [Object.assign(new Ticket("t1"), { version: ++version })] };
    class FreshDesk {
      @LlmTool("Open tickets")
      openTickets(): Ticket[] {
        return desk.openTickets();
      }
    }
    const events: ToolProviderDiscoveredEvent[] = [];
    const handle = handleOf(new Ticket("t1"));
    const model = mockModel(
      call("openTickets"),
      call("openTickets"),
      call("ticket_assign", { handle, to: "Ann" }),
      text("ok"),
    );
    await new PromptRunner({ model })
      .withTools(new FreshDesk())
      .withToolProviderDiscovery({ binding: "handles", handleKey: KEY })
      .withObserver((e) => {
        if (e.type === "ToolProviderDiscovered") events.push(e);
      })
      .run("?");
    expect(events.map((e) => [e.handle, e.replacedEarlierInstance])).toEqual([
      [handle, false],
      [handle, true],
    ]);
    expect(toolResultsSeenAt(model, 3).at(-1)).toBe("t1 (v2) → Ann");
  });

  it("two classes with one prefix and one method get two tools, each running on its own class", async () => {
    @ToolProvider({ prefix: "account" })
    class AccountTwin {
      constructor(public id: number) {}
      @LlmTool("Get this twin's balance")
      getBalance(): string {
        return `twin ${this.id}`;
      }
    }
    const twin = new AccountTwin(2);
    const model = mockModel(
      (options) => {
        const names = (options.tools ?? []).map((t) => t.name);
        const twinTool = names.find((n) => /^account_[0-9a-z]{16}_getBalance$/.test(n))!;
        return call(twinTool, { handle: handleOf(twin) });
      },
      call("account_getBalance", { handle: handleOf(twin) }),
      text("ok"),
    );
    await new PromptRunner({ model })
      .withToolProviderDiscovery({
        binding: "handles",
        classes: [Account, AccountTwin],
        handleKey: KEY,
        resolveProvider: () => twin,
      })
      .run("?");
    expect(offeredAt(model, 0)).toEqual([
      "account_getBalance",
      "account_withdraw",
      expect.stringMatching(/^account_[0-9a-z]{16}_getBalance$/),
    ]);
    expect(toolResultsSeenAt(model, 2)).toEqual([
      "twin 2",
      expect.stringContaining("is of class AccountTwin, and this tool takes handles of class Account"),
    ]);
  });

  it("a class in `classes` that is not a @ToolProvider is refused when discovery is configured", () => {
    expect(() =>
      new PromptRunner({ model: mockModel() }).withToolProviderDiscovery({
        binding: "handles",
        classes: [Bank],
      }),
    ).toThrow(InvalidToolProviderError);
  });

  it("a withApproval predicate sees the handle in the input", async () => {
    const bank = new Bank();
    const model = mockModel(
      call("findAccounts", { owner: "Bob" }),
      operation("handles", bank.accounts[1]!, "getBalance"),
      text("ok"),
    );
    const seen: unknown[] = [];
    const run = await runner(model, bank, options)
      .withApproval((call) => {
        seen.push(call.input);
        return call.toolName === "account_getBalance";
      })
      .run("?");
    expect(run.status).toBe("awaiting-approval");
    expect(seen.at(-1)).toEqual({ handle: handleOf(bank.accounts[1]!) });
    expect(ran).toEqual([]);
  });
});

describe("snapshots written by earlier versions and by handles mode", () => {
  const fixture = (version: number) =>
    JSON.parse(
      readFileSync(new URL(`../fixtures/snapshots/run-snapshot-v${version}.json`, import.meta.url), "utf8"),
    ) as RunSnapshot;
  const resumeIn = async (version: number, binding: Binding) => {
    const bank = new Bank(); // a fresh process: nothing of the first run is live
    const model = mockModel(text("done"));
    const snapshot = fixture(version);
    const run = await new PromptRunner({ model })
      .withTools(bank)
      .withToolProviderDiscovery({ binding, handleKey: "snapshot-fixture-key" })
      .resume(snapshot, {
        approvals: { [snapshot.paused!.calls[0]!.toolCallId]: { approved: true } },
        resolveProvider: (cls, id) =>
          cls === "Account" ? bank.accounts.find((a) => a.id === id) : undefined,
      });
    return { run, model };
  };

  it("a version 1 snapshot (per-instance names) resumes: the approved call runs on the resolved provider", async () => {
    const { run, model } = await resumeIn(1, "per-instance");
    expect(run.result).toBe("done");
    expect(ran).toEqual(["withdraw 2 20"]);
    expect(offeredAt(model, 0)).toContain("account_2_withdraw");
    expect(run.snapshot.version).toBe(2);
  });

  it("a version 2 snapshot records handle tools by class and method, and resumes in a fresh runner", async () => {
    expect(fixture(2).tools).toContainEqual({
      name: "account_withdraw",
      binding: "handles",
      providerClass: "Account",
      method: "withdraw",
    });
    const { run, model } = await resumeIn(2, "handles");
    expect(run.result).toBe("done");
    expect(ran).toEqual(["withdraw 2 20"]);
    // The restored tools are the ones the schema module makes known anyway: offered once each.
    expect(offeredAt(model, 0)).toEqual([
      "findAccounts",
      "byOwner",
      "notes",
      "account_getBalance",
      "account_withdraw",
      "account_read",
    ]);
  });

  it("a runner without handles tells the model the handle tools are gone, and the run goes on", async () => {
    const { run, model } = await resumeIn(2, "per-instance");
    expect(run.result).toBe("done");
    expect(ran).toEqual([]);
    expect(JSON.stringify(model.doGenerateCalls[0]!.prompt)).toContain(
      "Cannot restore the tool account_withdraw: this runner does not bind handles",
    );
  });
});

describe("resuming handles mode in a fresh runner", () => {
  it("handle tools of a class no module knows are restored, and the paused call re-binds its handle", async () => {
    const desk = new Desk();
    const handleOfT1 = new EntityHandleCodec(KEY).handleOf(new Ticket("t1"));
    const first = mockModel(call("openTickets"), call("ticket_assign", { handle: handleOfT1, to: "Ann" }));
    const paused = await new PromptRunner({ model: first })
      .withTools(desk)
      .withToolProviderDiscovery({ binding: "handles", handleKey: KEY })
      .withApproval((c) => c.toolName === "ticket_assign")
      .run("Assign t1 to Ann");
    expect(paused.status).toBe("awaiting-approval");

    const snapshot = JSON.parse(JSON.stringify(paused.snapshot)) as RunSnapshot;
    const second = mockModel(text("assigned"));
    const asked: unknown[] = [];
    const resumed = await new PromptRunner({ model: second })
      .withTools(new Desk())
      .withToolProviderDiscovery({
        binding: "handles",
        handleKey: KEY,
        resolveProvider: (cls, id) => {
          asked.push([cls, id]);
          return new Ticket(String(id));
        },
      })
      .resume(snapshot, { approvals: { [paused.pendingApprovals[0]!.approvalId]: { approved: true } } });
    expect(resumed.result).toBe("assigned");
    expect(asked).toEqual([["Ticket", "t1"]]);
    expect(offeredAt(second, 0)).toEqual(["openTickets", "ticket_close", "ticket_assign"]);
    expect(toolResultsSeenAt(second, 0).at(-1)).toBe("t1 → Ann");
    expect(resumed.injectedTools.map((t) => t.name)).toEqual(["ticket_close", "ticket_assign"]);
  });
});
