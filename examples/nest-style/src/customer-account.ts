import { Exclude } from "class-transformer";
import { LlmTool, ToolParam, ToolProvider } from "entity-tools";
import type { CustomerRepository } from "./customer-repository.js";

/** A domain entity. When a tool returns one, its methods become tools bound to this very account. */
@ToolProvider({ prefix: "account" })
export class CustomerAccount {
  @Exclude()
  private readonly repository: CustomerRepository;

  constructor(
    public id: string,
    public email: string,
    public balance: number,
    repository: CustomerRepository,
  ) {
    this.repository = repository;
  }

  @LlmTool("List this account's most recent invoices")
  invoices(@ToolParam("How many, newest first") limit = 5): string[] {
    return this.repository.invoicesOf(this.id).slice(0, limit);
  }
}
