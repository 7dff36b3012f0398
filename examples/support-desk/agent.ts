import "../register-schemas.js";
import type { PromptRunner } from "entity-tools";
import type { ExampleAgent } from "../example-agent.js";
import { RefundTools } from "./refund-tools.js";
import { supportPrompt } from "./support-prompt.js";

/** Progressive disclosure: the model reads the summarized policy manual, which unlocks the refund tools. */
export const supportDesk: ExampleAgent<string> = {
  name: "support-desk",
  question: "My order o-1002 arrived with a broken desk pad (25 USD). Can I get my money back?",
  configure: <R extends PromptRunner>(runner: R): R =>
    runner.withSystemPrompt(supportPrompt(new RefundTools()), { company: "Acme Office Supplies" }),
  ask: (runner, question) => runner.generateText(question),
  offlineScript: (model) =>
    model
      .callTool("read_section", { section_key: "policies" })
      .callTool("checkRefundEligibility", { orderId: "o-1002" })
      .callTool("issueRefund", { orderId: "o-1002", amount: 25, reason: "Desk pad arrived damaged" })
      .respondWithText(
        "Sorry about the desk pad! Damaged items are refunded in full: refund r-1 of 25 USD is on its way.",
      ),
};
