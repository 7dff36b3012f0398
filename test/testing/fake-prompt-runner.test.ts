import "../fixtures/store/register.js";
import { describe, expect, it } from "vitest";
import { InvalidSettingError, ModelCallError, PromptRunner } from "entity-tools";
import { FakePromptRunner, ScriptedLanguageModel, scoreToolUse, type Cassette } from "entity-tools/testing";
import { SpendAnswer } from "../fixtures/store/answers.js";
import { Customer } from "../fixtures/store/customer.js";
import { CustomerSearchTools } from "../fixtures/store/customer-search-tools.js";
import { OrderRepository } from "../fixtures/store/repositories.js";

describe("FakePromptRunner", () => {
  it("drives the real loop with patterns, records each step, and shares state with derived runners", async () => {
    const fake = new FakePromptRunner();
    const runner = fake.withTools(new CustomerSearchTools()).withToolProviderDiscovery();
    fake
      .callTool("searchCustomer", { name: "John Smith" })
      .callTool(/^customer_.+_getAverageSpend$/)
      .respondWithObject({ customerName: "John Smith", averageMonthlySpend: 46.83, currency: "USD" });

    const answer = await runner.createObject(SpendAnswer, "What is John Smith's average spend?");

    expect(answer).toBeInstanceOf(SpendAnswer);
    expect(fake.toolsOfferedAt(1)).toEqual(["searchCustomer", "findCustomers"]);
    expect(fake.toolsOfferedAt(2)).toContain("customer_c123_getAverageSpend");
    expect(fake.injectedToolNames).toEqual(["customer_c123_getAverageSpend", "customer_c123_recentOrders"]);
    expect(fake.callsAt(2)).toEqual([
      {
        toolName: "customer_c123_getAverageSpend",
        input: {},
        resultText: '{"amount":46.83,"currency":"USD"}',
        isError: false,
        provider: { providerClass: "Customer", id: "c123", idType: "string" },
      },
    ]);
    // The step that found the customer records it, with the method each of its tools runs.
    expect(fake.steps[0]!.discovered).toEqual([
      {
        provider: { providerClass: "Customer", id: "c123", idType: "string" },
        tools: {
          customer_c123_getAverageSpend: "getAverageSpend",
          customer_c123_recentOrders: "getRecentOrders",
        },
      },
    ]);
    expect(fake.steps).toHaveLength(3);
    expect(fake.steps[2]!.text).toContain('"customerName":"John Smith"');
    fake.verifyExpectations();
    // A step the run did not have is the library's own error, naming the steps there are.
    expect(() => fake.callsAt(4)).toThrow(InvalidSettingError);
    expect(() => fake.toolsOfferedAt(0)).toThrow(
      "step must be a step of the latest run, which has 3 step(s) numbered from 1, got 0",
    );
  });

  it("records what the model read, notices included", async () => {
    const fake = new FakePromptRunner();
    const runner = fake.withTools(new CustomerSearchTools()).withToolProviderDiscovery();
    const nameless = new Customer("", "No Id", "n@example.com", new OrderRepository([]));
    fake
      .expectToolProviderReturn("findCustomers", [nameless])
      .callTool("findCustomers", { text: "x" })
      .respondWithText("ok");
    await runner.run("q");
    expect(fake.calls[0]!.resultText).toBe(
      '[{"id":"","name":"No Id","email":"n@example.com"}]\n\n[Cannot expose tools of Customer: its id property "id" is empty; no tools were added for it.]',
    );
  });

  it("a pattern with the g or y flag matches every time, as a scripted call, a stub and an expected call", async () => {
    // RegExp.test of a /g pattern goes on from where it last matched: the next name was tested from there.
    const fake = new FakePromptRunner();
    const runner = fake.withTools(new CustomerSearchTools()).withToolProviderDiscovery();
    fake
      .expectToolProviderReturn(/^find/g, [])
      .callTool(/^findCustomers$/g, { text: "Smith" })
      .callTools([
        [/^findCustomers$/g, { text: "Khan" }],
        [/^search/y, { name: "John Smith" }],
      ])
      .callTool(/^findCustomers$/g, { text: "Ahmed" })
      .respondWithText("none");
    await runner.run("Smith, Khan, Ahmed?");
    expect(fake.calls.map((c) => [c.toolName, c.resultText])).toEqual([
      ["findCustomers", "[]"],
      ["findCustomers", "[]"],
      ["searchCustomer", expect.stringContaining('"name":"John Smith"') as unknown],
      ["findCustomers", "[]"],
    ]);
    const finds = /^findCustomers$/g;
    expect(scoreToolUse(fake, [finds, finds, finds]).verdicts.map((v) => v.verdict)).toEqual([
      "called",
      "called",
      "called",
    ]);
  });

  it("expectToolProviderReturn hands the loop a provider without a repository behind the search", async () => {
    const stubbed = new Customer("c-777", "Stub Person", "s@example.com", new OrderRepository([]));
    const fake = new FakePromptRunner()
      .withTools(new CustomerSearchTools())
      .withToolProviderDiscovery()
      .expectToolProviderReturn("searchCustomer", stubbed)
      .callTool("searchCustomer", { name: "Anyone" })
      .callTool("customer_c-777_getAverageSpend")
      .respondWithText("zero");
    expect(await fake.generateText("q")).toBe("zero");
    expect(fake.callsAt(1)[0]!.resultText).toBe(
      '{"id":"c-777","name":"Stub Person","email":"s@example.com"}',
    );
    expect(fake.callsAt(2)[0]!.resultText).toBe('{"amount":0,"currency":"USD"}');
  });

  it("says clearly when the script runs out", async () => {
    const fake = new FakePromptRunner()
      .withTools(new CustomerSearchTools())
      .callTool("findCustomers", { text: "Smith" });
    const error = await fake.generateText("q").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelCallError);
    expect((error as Error).message).toMatch(
      /The script ran out at step 2: the loop asked the model again after the last scripted turn \(1 scripted\)\. Offered: searchCustomer, findCustomers/,
    );
  });

  it("says clearly when a pattern matches no offered tool, or several", async () => {
    const none = new FakePromptRunner().withTools(new CustomerSearchTools()).callTool(/^customer_/);
    await expect(none.generateText("q")).rejects.toThrow(
      "Step 1: the pattern /^customer_/ matched no offered tool. Offered: searchCustomer, findCustomers",
    );
    const several = new FakePromptRunner()
      .withTools(new CustomerSearchTools())
      .withToolProviderDiscovery()
      .callTool("findCustomers", { text: "Smith" })
      .callTool(/getAverageSpend$/);
    await expect(several.generateText("q")).rejects.toThrow(
      /Step 2: the pattern \/getAverageSpend\$\/ matched 2 tools \(customer_c123_getAverageSpend, customer_c456_getAverageSpend\); make it match one/,
    );
  });

  it("says clearly when the script calls a tool that was not offered, and allows it on purpose", async () => {
    const strict = new FakePromptRunner()
      .withTools(new CustomerSearchTools())
      .callTool("customer_c1_getAverageSpend");
    await expect(strict.generateText("q")).rejects.toThrow(
      /Step 1: the script calls "customer_c1_getAverageSpend", which was not offered/,
    );
    const lenient = new FakePromptRunner().callUnknownTool("ghost").respondWithText("ok");
    expect(await lenient.generateText("q")).toBe("ok");
    expect(lenient.callsAt(1)[0]).toMatchObject({ toolName: "ghost", isError: true });
  });

  // A function as the input (a guess for computing a handle from an earlier result) failed the run with
  // "Cannot read properties of undefined (reading 'length')"; it is refused where it is given.
  it("refuses an input it cannot send where it is scripted, naming the method and what to pass", async () => {
    const fake = new FakePromptRunner().withTools(new CustomerSearchTools());
    const fn = () => ({ name: "John Smith" });
    expect(() => fake.callTool("searchCustomer", fn)).toThrow(
      'callTool("searchCustomer", input): the input is a function, which a scripted call cannot send. ' +
        "Give the tool's arguments (an object; a string is sent as raw argument text). To compute them " +
        "during the run (from what an earlier call returned), script the turn with " +
        "respondWith(describe, (request) => ({ toolCalls: [{ toolName, input }] })).",
    );
    expect(() =>
      fake.callTools([
        ["findCustomers", {}],
        [/^search/, fn],
      ]),
    ).toThrow(
      /^callTools\(\[…\]\): the input of call 2 \(\/\^search\/\) is a function, which a scripted call cannot send\./,
    );
    expect(() => new ScriptedLanguageModel().callUnknownTool("ghost", { n: 1n })).toThrow(
      'callUnknownTool("ghost", input): the input cannot be sent as JSON (Do not know how to serialize a BigInt). ' +
        "Give the tool's arguments (an object; a string is sent as raw argument text).",
    );
    // Nested, JSON would leave it out without a word: the call was sent as `{}`.
    expect(() => fake.callTool("searchCustomer", { name: "John", filter: { match: fn } })).toThrow(
      'callTool("searchCustomer", input): the input holds a function at "match", which JSON leaves out. ' +
        "Give the tool's arguments (an object; a string is sent as raw argument text).",
    );
    // Nothing was scripted: the run plays what came after.
    fake.respondWithText("done");
    expect(await fake.generateText("q")).toBe("done");
    // A turn computed during the run gets the same check when it is played.
    const computed = new FakePromptRunner()
      .withTools(new CustomerSearchTools())
      .respondWith("search", () => ({ toolCalls: [{ toolName: "searchCustomer", input: fn }] }));
    await expect(computed.generateText("q")).rejects.toThrow(
      /The call of "searchCustomer" has an input that is a function, which a scripted call cannot send\./,
    );
  });

  it("verifyExpectations names unplayed turns and unused stubs", async () => {
    const fake = new FakePromptRunner()
      .respondWithText("a")
      .respondWithText("b")
      .expectToolProviderReturn("never", 1);
    await fake.generateText("q");
    expect(() => fake.verifyExpectations()).toThrow(
      'FakePromptRunner expectations not met: 1 scripted turn(s) were not played: text "b"; the stubbed tool never was never called',
    );
  });

  it("verifyExpectations names each unplayed turn as it was scripted (the first five)", () => {
    const parts = [{ type: "text", text: "recorded" }];
    const cassette: Cassette = {
      format: "entity-tools/cassette",
      version: 1,
      model: { provider: "p", modelId: "m", specificationVersion: "v3" },
      steps: [1, 2].map((step) => ({ step, request: { tools: [] }, response: { kind: "stream", parts } })),
    };
    const fake = new FakePromptRunner()
      .callTool("searchCustomer")
      .callTools([["findCustomers"], [/_getAverageSpend$/]])
      .playCassette(cassette, { file: "spend.json" })
      .respondWithText("done")
      .respondWithObject({ done: true });
    expect(() => fake.verifyExpectations()).toThrow(
      '6 scripted turn(s) were not played: a call of "searchCustomer", calls of "findCustomers" and ' +
        "/_getAverageSpend$/, step 1 of the cassette spend.json, step 2 of the cassette spend.json, " +
        'text "done", and 1 more',
    );
  });

  it("the scripted model works directly with PromptRunner", async () => {
    const model = new ScriptedLanguageModel()
      .callTool("findCustomers", { text: "Khan" })
      .respondWith("echo", ({ offeredTools }) => ({
        text: offeredTools.join(","),
      }));
    const text = await new PromptRunner({ model })
      .withTools(new CustomerSearchTools())
      .withToolProviderDiscovery()
      .generateText("q");
    expect(text).toBe(
      "searchCustomer,findCustomers,customer_c789_getAverageSpend,customer_c789_recentOrders",
    );
  });
});
