// The store's customer search served by createMcpServer at 2026-07-28 with handles (classes: Customer),
// its handles re-bound through resolveProvider from the same search: what the MCP handle tests share.
import "../fixtures/store/register.js";
import type { McpServerOptions } from "entity-tools/mcp";
import { CustomerSearchTools } from "../fixtures/store/customer-search-tools.js";
import { Customer } from "../fixtures/store/customer.js";
import { modernEndpoint } from "./mcp-v2.js";

/** The search the endpoint serves; its customers are the ones `resolveProvider` finds. */
export const search = new CustomerSearchTools();

/** A 2026-07-28 endpoint of the shop, with `more` options over the defaults. */
export const shop = (more: Partial<McpServerOptions> = {}) =>
  modernEndpoint({
    name: "shop",
    version: "1.0.0",
    tools: [search],
    discovery: true,
    classes: [Customer],
    handleKey: "test key of the shop",
    resolveProvider: (_cls, id) => search.findCustomers("").find((c) => c.id === id),
    ...more,
  });
