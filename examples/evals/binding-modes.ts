// The three ways discovered entities reach the model, compared side by side by the eval.
import type { PromptRunner } from "entity-tools";
import { Customer } from "../domain/customer.js";
import { Order } from "../domain/order.js";

/** A binding mode: its name in the table and how it configures discovery. */
export interface BindingMode {
  readonly name: "per-instance" | "handles" | "deferred";
  configure<R extends PromptRunner>(runner: R): R;
}

// Handles are signed: a replayed run must accept the handles the recorded model was given, so the eval
// signs with one fixed key (any text of 16 bytes or more; a real service keeps its key secret).
const HANDLE_KEY = "entity-tools-evals-handle-key";

export const BINDING_MODES: readonly BindingMode[] = [
  { name: "per-instance", configure: (runner) => runner.withToolProviderDiscovery() },
  {
    name: "handles",
    configure: (runner) =>
      runner.withToolProviderDiscovery({
        binding: "handles",
        classes: [Customer, Order],
        handleKey: HANDLE_KEY,
      }),
  },
  { name: "deferred", configure: (runner) => runner.withToolProviderDiscovery({ delivery: "deferred" }) },
];
