import { Exclude } from "class-transformer";
import { LlmTool, ToolParam, ToolProvider } from "entity-tools";
import { Money, round2 } from "./money.js";
import type { Order } from "./order.js";
import type { OrderRepository } from "./repositories.js";

/**
 * A customer. When a tool returns one, the model gets `customer_<id>_getAverageSpend` and
 * `customer_<id>_recentOrders`, bound to this very instance (with its repository).
 */
@ToolProvider({ prefix: "customer", instanceIdProperty: "id" })
export class Customer {
  @Exclude()
  private readonly orders: OrderRepository;

  constructor(
    public id: string,
    public name: string,
    public email: string,
    orders: OrderRepository,
  ) {
    this.orders = orders;
  }

  @LlmTool("Get this customer's average monthly spend over the last 12 months")
  getAverageSpend(): Money {
    const orders = this.orders.ordersOf(this.id);
    const total = orders
      .flatMap((o) => o.getLineItems())
      .reduce((sum, l) => sum + l.quantity * l.unitPrice, 0);
    return new Money(round2(total / 12), "USD");
  }

  @LlmTool({ description: "Get this customer's most recent orders", name: "recentOrders" })
  getRecentOrders(@ToolParam("Maximum number of orders to return") limit = 10): Order[] {
    return this.orders.ordersOf(this.id).slice(0, limit);
  }
}
