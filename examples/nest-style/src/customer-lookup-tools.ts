import { LlmTool, ToolParam } from "entity-tools";
import type { CustomerAccount } from "./customer-account.js";
import type { CustomerRepository } from "./customer-repository.js";

/** A tool group a service is given: in NestJS, a provider with the repository injected. */
export class CustomerLookupTools {
  constructor(private readonly repository: CustomerRepository) {}

  @LlmTool("Find a customer account by email address")
  findAccount(@ToolParam("The customer's email address") email: string): CustomerAccount | string {
    return this.repository.byEmail(email) ?? `No account for ${email}`;
  }
}
