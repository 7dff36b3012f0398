import { LlmTool, ToolParam, ToolProvider } from "entity-tools";
import { Money } from "./money.js";

const PRICES: Readonly<Record<string, number>> = {
  "KB-01": 129.0,
  "MS-02": 39.5,
  "PD-07": 25.0,
  "HD-03": 199.0,
};

/** A line in a cart. */
export class CartLine {
  constructor(
    public sku: string,
    public quantity: number,
  ) {}
}

/** A stateful provider: every call works on the same live cart, so what the model adds stays added. */
@ToolProvider({ prefix: "cart" })
export class ShoppingCart {
  lines: CartLine[] = [];
  checkedOut = false;

  constructor(public id: string) {}

  @LlmTool("Add a product to this cart")
  addItem(
    @ToolParam("Product SKU, e.g. KB-01") sku: string,
    @ToolParam("How many") quantity = 1,
  ): ShoppingCart | string {
    if (this.checkedOut) return "This cart is checked out; start a new one";
    if (!(sku in PRICES)) return `Unknown SKU "${sku}"; known: ${Object.keys(PRICES).join(", ")}`;
    const line = this.lines.find((l) => l.sku === sku);
    if (line) line.quantity += quantity;
    else this.lines.push(new CartLine(sku, quantity));
    return this;
  }

  @LlmTool("Remove a product from this cart")
  removeItem(@ToolParam("Product SKU") sku: string): ShoppingCart {
    this.lines = this.lines.filter((l) => l.sku !== sku);
    return this;
  }

  @LlmTool("Get the total price of this cart")
  getTotal(): Money {
    return Money.sum(this.lines.map((l) => new Money(l.quantity * (PRICES[l.sku] ?? 0), "USD")));
  }

  @LlmTool("Check out this cart")
  checkout(): string {
    if (this.lines.length === 0) throw new Error("Cannot check out an empty cart");
    this.checkedOut = true;
    return `Cart ${this.id} checked out: ${this.lines.map((l) => `${l.quantity} x ${l.sku}`).join(", ")}, total ${this.getTotal().amount} USD`;
  }
}

/** Opens carts; the cart's own tools are discovered from the returned instance. */
export class CartTools {
  private opened = 0;

  @LlmTool("Open a new, empty shopping cart")
  createCart(): ShoppingCart {
    return new ShoppingCart(`cart${++this.opened}`);
  }
}
