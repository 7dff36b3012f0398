import { AiSdkAdapter } from "../adapters/ai-sdk-adapter.js";
import { withSettings } from "../loop/settings/run-settings.js";
import { ToolProviderStrategy } from "../strategies/tool-provider-strategy.js";
import type { DiscoveryOptions, RunnerConfig } from "./runner-options.js";

/**
 * What turning discovery on changes in a runner's configuration: one `ToolProviderStrategy` (replacing an
 * earlier one), the injection limits, and the model adapter's tool delivery.
 */
export function discoveryConfig(config: RunnerConfig, options: DiscoveryOptions): Partial<RunnerConfig> {
  const others = config.strategies.filter((s) => !(s instanceof ToolProviderStrategy));
  const { maxInjectedTools: _tools, maxInjectedTokens: _tokens, ...binding } = options;
  // Deferred delivery is the model adapter's to do (an AI SDK model's provider has the form, or not).
  const delivery = options.binding === "handles" ? "inline" : (options.delivery ?? "inline");
  return {
    adapter:
      config.adapter instanceof AiSdkAdapter ? config.adapter.withToolDelivery(delivery) : config.adapter,
    strategies: [...others, new ToolProviderStrategy(binding)],
    settings: withSettings(config.settings, {
      maxInjectedTools: options.maxInjectedTools,
      maxInjectedTokens: options.maxInjectedTokens,
    }),
  };
}
