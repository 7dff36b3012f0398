import { LlmTool, ToolParam } from "entity-tools";
import { Customer } from "./customer.js";
import { OrderRepository } from "./repositories.js";

/** The tool group the agent starts with: finding customers. Everything else is discovered. */
export class CustomerSearchTools {
  private readonly customers: Customer[];

  constructor(orders: OrderRepository = new OrderRepository()) {
    this.customers = [
      new Customer("c123", "John Smith", "john@example.com", orders),
      new Customer("c456", "Jane Smith", "jane@example.com", orders),
      new Customer("c789", "Ahmed Khan", "ahmed@example.com", orders),
    ];
  }

  @LlmTool("Find the customer with this exact name")
  searchCustomer(@ToolParam("The customer's full name") name: string): Customer | string {
    return (
      this.customers.find((c) => c.name.toLowerCase() === name.toLowerCase()) ??
      `No customer is named "${name}"`
    );
  }

  /** The customer with this id (not a tool: what `resolveProvider` uses to find a customer again). */
  byId(id: string): Customer | undefined {
    return this.customers.find((c) => c.id === id);
  }

  @LlmTool("Find every customer whose name contains the text")
  findCustomers(@ToolParam("Part of a name, e.g. a surname") text: string): Customer[] {
    return this.customers.filter((c) => c.name.toLowerCase().includes(text.toLowerCase()));
  }
}
