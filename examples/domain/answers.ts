/** The structured answer of the customer-spend agent. */
export class SpendAnswer {
  customerName!: string;
  averageMonthlySpend!: number;
  currency!: string;
}

/** The structured answer of the orders agent. */
export class OrderSummary {
  customerName!: string;
  orderIds!: string[];
  /** Line items of the most recent order, as "quantity x description". */
  latestOrderItems!: string[];
}
