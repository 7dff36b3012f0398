// An agent run as a Restate workflow: every model step and every tool call is journaled, so the run
// survives the process (a crash, a deploy); a refund waits for a person's approval as a durable promise,
// and carries an idempotency key, so a crash inside it after the money moved does not move it again.
// With a `conversationId`, the run is one turn of a conversation kept in the Conversation virtual object
// (one writer per conversation): it continues from the stored snapshot, tools found earlier still bound.
//   npx restate-server                                  # the Restate server (npm @restatedev/restate-server)
//   node --import tsx examples/restate-agent/service.ts # this service, on PORT (default 9080)
//   curl 127.0.0.1:9070/deployments -H 'content-type: application/json' -d '{"uri":"http://127.0.0.1:9080"}'
//   curl 127.0.0.1:8080/AgentRun/run-1/run/send -H 'content-type: application/json' -d '{"prompt":"Refund Ada 20"}'
//   curl 127.0.0.1:8080/AgentRun/run-1/pending -X POST                    # the calls waiting for approval
//   curl 127.0.0.1:8080/AgentRun/run-1/approve -H 'content-type: application/json' \
//     -d '{"approvalId":"step-3","approved":true}'
//   curl 127.0.0.1:8080/restate/workflow/AgentRun/run-1/attach             # the answer
//   curl 127.0.0.1:8080/AgentRun/run-2/run/send -H 'content-type: application/json' \
//     -d '{"prompt":"What is the balance now?","conversationId":"ada"}'    # a turn of conversation "ada"
import { pathToFileURL } from "node:url";
import "./node20-polyfill.js";
import * as restate from "@restatedev/restate-sdk";
import {
  AiSdkAdapter,
  ConversationConflictError,
  PromptRunner,
  beginConversationTurn,
  type ApprovalDecision,
  type PendingApproval,
} from "entity-tools";
import { AccountTools, resolveAccount } from "./accounts.js";
import { conversationObject, RestateConversationStore } from "./conversation-object.js";
import { journaledModel, journaledTools } from "./journaled.js";
import { offlineModel } from "./offline-model.js";

/** A decision as a person sends it to `approve`. */
type Decision = { readonly approvalId: string; readonly approved: boolean; readonly reason?: string };

const asDecision = (d: Decision): ApprovalDecision =>
  d.approved ? { approved: true } : { approved: false, reason: d.reason };

export const agentRun = restate.workflow({
  name: "AgentRun",
  handlers: {
    run: async (
      ctx: restate.WorkflowContext,
      input: { prompt: string; conversationId?: string },
    ): Promise<string> => {
      // For the crash test: exit right before this live (not replayed) model step.
      const crashAt = Number(process.env.CRASH_BEFORE_STEP ?? 0);
      const model = journaledModel(ctx, new AiSdkAdapter(offlineModel()), (step) => {
        if (step === crashAt) process.exit(1);
      });
      const runner = new PromptRunner({ adapter: model })
        .withTools(new AccountTools())
        .withToolProviderDiscovery()
        .withToolMiddleware(journaledTools(ctx, resolveAccount, ctx.key));
      const store = new RestateConversationStore((id) => ctx.objectClient(conversationObject, id));
      const turn = input.conversationId
        ? await terminalOnConflict(beginConversationTurn(store, input.conversationId))
        : undefined;
      let run = await runner.run(input.prompt, {
        continueFrom: turn?.snapshot,
        conversationId: input.conversationId,
        resolveProvider: resolveAccount,
      });
      while (run.status === "awaiting-approval") {
        ctx.set<readonly PendingApproval[]>("pending", run.pendingApprovals);
        const approvals: Record<string, ApprovalDecision> = {};
        for (const { approvalId } of run.pendingApprovals) {
          approvals[approvalId] = asDecision(await ctx.promise<Decision>(`approval-${approvalId}`).get());
        }
        ctx.clear("pending");
        run = await runner.resume(run.snapshot, { approvals, resolveProvider: resolveAccount });
      }
      await terminalOnConflict(turn?.save(run.snapshot));
      return run.result;
    },
    /** A person's decision on a pending call; it completes the durable promise the run waits on. */
    approve: async (ctx: restate.WorkflowSharedContext, decision: Decision): Promise<void> => {
      await ctx.promise<Decision>(`approval-${decision.approvalId}`).resolve(decision);
    },
    /** The calls the run waits on. */
    pending: async (ctx: restate.WorkflowSharedContext): Promise<readonly PendingApproval[]> =>
      (await ctx.get<readonly PendingApproval[]>("pending")) ?? [],
  },
});

/**
 * A conflict is final: the journal would give the same answer on every retry, so the turn fails for good
 * (another turn of the conversation came first) instead of being retried forever.
 */
async function terminalOnConflict<T>(work: Promise<T> | undefined): Promise<T | undefined> {
  try {
    return await work;
  } catch (error) {
    if (ConversationConflictError.isInstance(error)) throw new restate.TerminalError(error.message);
    throw error;
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const port = await restate.serve({
    services: [agentRun, conversationObject],
    port: Number(process.env.PORT ?? 9080),
  });
  console.error(`AgentRun listening on 127.0.0.1:${port}`);
}
