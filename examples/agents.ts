import { customerSpend } from "./customer-spend/agent.js";
import type { ExampleAgent } from "./example-agent.js";
import { orders } from "./orders/agent.js";
import { shoppingCart } from "./shopping-cart/agent.js";
import { supportDesk } from "./support-desk/agent.js";

/** Every runnable example, by name. */
export const EXAMPLES: readonly ExampleAgent<unknown>[] = [customerSpend, orders, shoppingCart, supportDesk];
