import { LlmTool, ToolParam } from "entity-tools";

/** A refund issued by the support desk. */
export class Refund {
  constructor(
    public refundId: string,
    public orderId: string,
    public amount: number,
    public reason: string,
  ) {}
}

/** Refund tools: offered only once the model has read the refund policy they belong to. */
export class RefundTools {
  readonly issued: Refund[] = [];

  @LlmTool("Check whether an order can still be refunded under the refund policy")
  checkRefundEligibility(@ToolParam("The order id, e.g. o-1002") orderId: string): string {
    return orderId.startsWith("o-")
      ? `Order ${orderId} is within the 30-day window and eligible`
      : `Unknown order ${orderId}`;
  }

  @LlmTool("Issue a refund for an order")
  issueRefund(
    @ToolParam("The order id") orderId: string,
    @ToolParam("Amount in USD, at most the price paid") amount: number,
    @ToolParam("Why, in a few words") reason: string,
  ): Refund {
    const refund = new Refund(`r-${this.issued.length + 1}`, orderId, amount, reason);
    this.issued.push(refund);
    return refund;
  }
}
