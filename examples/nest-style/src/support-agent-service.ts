import { ApprovalRequiredError, PromptRunner } from "entity-tools";
import type { CustomerLookupTools } from "./customer-lookup-tools.js";

/**
 * The service a NestJS controller would call: the runner and the tools are injected, and each question is
 * one run that may discover accounts and call their tools.
 */
export class SupportAgentService {
  constructor(
    private readonly runner: PromptRunner,
    private readonly lookup: CustomerLookupTools,
  ) {}

  async ask(question: string): Promise<{ answer: string; discovered: string[] }> {
    const run = await this.runner.withTools(this.lookup).withToolProviderDiscovery().run(question);
    // None of these tools needs approval, but the type says a run may pause: narrow on its status.
    if (run.status !== "completed") throw new ApprovalRequiredError(run);
    return { answer: run.result, discovered: run.injectedTools.map((t) => t.name) };
  }
}
