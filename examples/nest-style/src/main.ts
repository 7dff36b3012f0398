// The composition root (a NestJS module would do this wiring): compiled to CommonJS, it loads
// entity-tools with require(). Offline: a scripted model plays the conversation.
import { PromptRunner, registerToolSchemas } from "entity-tools";
import { ScriptedLanguageModel } from "entity-tools/testing";
import { CustomerLookupTools } from "./customer-lookup-tools.js";
import { CustomerRepository } from "./customer-repository.js";
import { toolSchemas } from "./generated/tool-schemas.js";
import { SupportAgentService } from "./support-agent-service.js";

registerToolSchemas(toolSchemas);

async function main(): Promise<void> {
  const model = new ScriptedLanguageModel()
    .callTool("findAccount", { email: "ada@example.com" })
    .callTool(/^account_.+_invoices$/, { limit: 1 })
    .respondWithText("Ada's latest invoice is INV-7, paid.");
  const service = new SupportAgentService(
    new PromptRunner({ model }),
    new CustomerLookupTools(new CustomerRepository()),
  );
  console.log(JSON.stringify(await service.ask("What is Ada's latest invoice?")));
}

void main();
