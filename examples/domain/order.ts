import { LlmTool, ToolProvider } from "entity-tools";
import { Money } from "./money.js";

/** One product line of an order. */
export class LineItem {
  constructor(
    public sku: string,
    public description: string,
    public quantity: number,
    public unitPrice: number,
  ) {}
}

/** A placed order. Its tools appear when the model obtains it, e.g. from a customer's recent orders. */
@ToolProvider()
export class Order {
  constructor(
    public id: string,
    public customerId: string,
    public placedAt: Date,
    private readonly lines: LineItem[],
  ) {}

  @LlmTool("List the line items of this order")
  getLineItems(): LineItem[] {
    return this.lines;
  }

  @LlmTool("Get the total amount of this order")
  getTotal(): Money {
    return Money.sum(this.lines.map((l) => new Money(l.quantity * l.unitPrice, "USD")));
  }
}
