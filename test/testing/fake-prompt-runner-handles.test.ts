import "../fixtures/register.js";
import { describe, expect, it } from "vitest";
import { EntityHandleCodec } from "entity-tools";
import { FakePromptRunner } from "entity-tools/testing";
import { Account, AccountNote, Bank, ran } from "../fixtures/bank.js";

describe("FakePromptRunner in handles mode", () => {
  it("scripts a call by a handle read from the result, records a fixed tool list and no injections", async () => {
    ran.length = 0;
    const fake = new FakePromptRunner();
    const runner = fake
      .withTools(new Bank())
      .withToolProviderDiscovery({ binding: "handles", classes: [Account, AccountNote] });
    fake
      .callTool("findAccounts", { owner: "Bob" })
      .respondWith("call getBalance with the handle the search returned", ({ options }) => {
        const handle = /Account#2~[\w-]{22}/.exec(JSON.stringify(options.prompt))![0];
        return { toolCalls: [{ toolName: "account_getBalance", input: { handle } }] };
      })
      .respondWithText("50");

    const run = await runner.run("Bob's balance?");

    expect(run.result).toBe("50");
    expect(ran).toEqual(["getBalance 2"]);
    expect(fake.toolsOfferedAt(1)).toEqual(fake.toolsOfferedAt(3));
    expect(fake.toolsOfferedAt(1)).toContain("account_getBalance");
    expect(fake.injectedToolNames).toEqual([]);
    expect(fake.callsAt(2)[0]).toMatchObject({
      toolName: "account_getBalance",
      resultText: "50",
      isError: false,
    });
    fake.verifyExpectations();
  });

  it("a stubbed provider return is reached by its handle, minted with the runner's handleKey", async () => {
    const stub = new Account(9, "Stub", 1);
    const fake = new FakePromptRunner()
      .withTools(new Bank())
      .withToolProviderDiscovery({ binding: "handles", classes: [Account], handleKey: "k".repeat(16) })
      .expectToolProviderReturn("findAccounts", [stub])
      .callTool("findAccounts", { owner: "anyone" })
      .callTool("account_getBalance", { handle: new EntityHandleCodec("k".repeat(16)).handleOf(stub) })
      .respondWithText("1");
    await fake.run("?");
    expect(fake.callsAt(2)[0]).toMatchObject({ resultText: "1", isError: false });
  });
});
