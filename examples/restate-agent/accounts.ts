// The agent's domain: accounts it discovers, one of whose tools (a refund) needs a person's approval.
// Every tool call appends a line to EFFECTS_FILE when set, so a test can count side effects.
import { appendFileSync } from "node:fs";
import { LlmTool, ToolProvider } from "entity-tools";
import { idempotencyKey } from "./journaled.js";
import { payOnce } from "./payments.js";

function effect(what: string): void {
  if (process.env.EFFECTS_FILE) appendFileSync(process.env.EFFECTS_FILE, `${what}\n`);
}

@ToolProvider({ prefix: "account" })
export class Account {
  constructor(
    public id: string,
    public email: string,
    public balance: number,
  ) {}

  @LlmTool("Get this account's balance")
  getBalance(): number {
    effect(`balance ${this.id}`);
    return this.balance;
  }

  @LlmTool({
    description: "Refund an amount to this account",
    needsApproval: true,
    parameters: { type: "object", properties: { amount: { type: "number" } }, required: ["amount"] },
  })
  refund(amount: number): string {
    // The money moves at the payment system, once per idempotency key: a retry of this call after a
    // crash (the effect done, its result not yet journaled) is answered from there, not paid again.
    const payment = payOnce(idempotencyKey(), `refund ${this.id} ${amount}`);
    if (process.env.CRASH_AFTER_EFFECT === "refund") process.exit(1); // for the crash test
    if (payment.first) this.balance += amount;
    return `refunded ${amount} (payment ${payment.id})`;
  }
}

/** In-memory accounts: what `resolveProvider` and a replay look providers up in. */
export const ACCOUNTS = new Map([["a-1", new Account("a-1", "ada@example.com", 80)]]);

export class AccountTools {
  @LlmTool({
    description: "Find the account of an email address",
    parameters: { type: "object", properties: { email: { type: "string" } }, required: ["email"] },
  })
  findAccount(email: string): Account | string {
    effect(`find ${email}`);
    return [...ACCOUNTS.values()].find((a) => a.email === email) ?? `No account for ${email}`;
  }
}

/** Finds a provider again by class and id (after a restart, or on resume). */
export function resolveAccount(providerClass: string, id: string | number): Account | undefined {
  return providerClass === "Account" ? ACCOUNTS.get(String(id)) : undefined;
}
