import { LineItem, Order } from "./order.js";

/** Orders by customer, in memory: a stand-in for a database the model must never see. */
export class OrderRepository {
  readonly connectionString = "postgres://orders:s3cret@db.internal/orders";
  private readonly orders: Order[];

  constructor(orders: readonly Order[] = SAMPLE_ORDERS) {
    this.orders = [...orders];
  }

  /** A customer's orders, newest first. */
  ordersOf(customerId: string): Order[] {
    return this.orders
      .filter((o) => o.customerId === customerId)
      .sort((a, b) => b.placedAt.getTime() - a.placedAt.getTime());
  }
}

const line = (sku: string, description: string, quantity: number, unitPrice: number) =>
  new LineItem(sku, description, quantity, unitPrice);

export const SAMPLE_ORDERS: readonly Order[] = [
  new Order("o-1001", "c123", new Date("2026-10-02T10:00:00Z"), [
    line("KB-01", "Mechanical keyboard", 1, 129.0),
  ]),
  new Order("o-1002", "c123", new Date("2026-08-14T09:30:00Z"), [
    line("MS-02", "Wireless mouse", 2, 39.5),
    line("PD-07", "Desk pad", 1, 25.0),
  ]),
  new Order("o-1003", "c123", new Date("2026-03-21T16:45:00Z"), [line("MN-27", '27" monitor', 1, 329.0)]),
  new Order("o-2001", "c456", new Date("2026-09-09T12:00:00Z"), [line("HD-03", "Headphones", 1, 199.0)]),
];
