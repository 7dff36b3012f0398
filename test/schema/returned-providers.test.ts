import { describe, expect, it } from "vitest";
import { toolSchemas } from "../fixtures/generated/tool-schemas.js";
import { Account, AccountNote } from "../fixtures/bank.js";

// The committed module is what the CLI writes (generated-schemas.test.ts checks it is fresh).
describe("the generated module records which provider classes each tool can return", () => {
  it("through arrays, Promise, Map values, unions and explicit @LlmTool({ parameters }) alike", () => {
    expect(toolSchemas.returns).toMatchObject({
      "Bank.findAccounts": ["Account"],
      "Bank.byOwner": ["Account"],
      "Bank.notes": ["AccountNote"],
      "Customer.getRecentOrders": ["Order"],
    });
    expect(toolSchemas.classes).toMatchObject({ Account, AccountNote });
  });

  it("a tool that returns no provider has no entry", () => {
    expect(Object.keys(toolSchemas.returns ?? {})).not.toContain("Customer.getAverageSpend");
    expect(Object.keys(toolSchemas.returns ?? {})).not.toContain("Account.getBalance");
  });
});
