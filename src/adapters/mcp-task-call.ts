// A tool whose `execution.taskSupport` is "required" (MCP tasks, 2025-11-25) fails any plain `tools/call`:
// it runs only as a task the client creates, polls and reads the result of. The official v1 client does that
// in `client.experimental.tasks.callToolStream`; this file is the one place that reads that (experimental)
// surface, structurally, so the MCP SDK stays out of our types.

/** One message of a task-augmented call's stream, loosely read. */
interface TaskStreamMessage {
  readonly type: string;
  readonly task?: { readonly taskId?: string; readonly status?: string; readonly statusMessage?: string };
  readonly result?: Record<string, unknown>;
  readonly error?: unknown;
}

/** The client's task API: the v1 SDK's `client.experimental.tasks`. */
export interface McpTaskApi {
  callToolStream(
    params: { name: string; arguments?: Record<string, unknown> },
    resultSchema?: never,
    options?: { signal?: AbortSignal; task?: Record<string, never> },
  ): AsyncIterable<TaskStreamMessage>;
  cancelTask?(taskId: string): Promise<unknown>;
}

/** The client's task API, when it has one this file can drive. */
export function taskApiOf(client: object): McpTaskApi | undefined {
  const tasks = (client as { experimental?: { tasks?: Partial<McpTaskApi> } }).experimental?.tasks;
  return typeof tasks?.callToolStream === "function" ? (tasks as McpTaskApi) : undefined;
}

/** Whether a listed tool can only run as a task. */
export function requiresTask(tool: {
  readonly execution?: { readonly taskSupport?: unknown } | undefined;
}): boolean {
  return tool.execution?.taskSupport === "required";
}

/** Why a task-required tool is not offered when the client has no task API. */
export const NO_TASK_API =
  'it runs only as an MCP task (execution.taskSupport: "required") and this client has no task API (use the v1 SDK Client, whose experimental.tasks runs tasks)';

/**
 * Runs a call as a task and returns its result: created, polled and read by the client SDK, stopped by
 * `signal` (the run's cancellation or the tool's time limit), when the task is also cancelled on the server.
 *
 * @throws the task's error, or an Error when the stream ends without a result
 */
export async function callToolAsTask(
  api: McpTaskApi,
  params: { name: string; arguments?: Record<string, unknown> },
  signal: AbortSignal,
): Promise<Record<string, unknown>> {
  let taskId: string | undefined;
  const cancel = () => {
    if (taskId !== undefined) api.cancelTask?.(taskId).catch(() => {});
  };
  signal.addEventListener("abort", cancel, { once: true });
  try {
    for await (const message of api.callToolStream(params, undefined, { signal, task: {} })) {
      if (message.task?.taskId) taskId = message.task.taskId;
      if (message.type === "result" && message.result) return message.result;
      if (message.type === "error")
        throw message.error instanceof Error ? message.error : new Error(String(message.error));
    }
  } finally {
    signal.removeEventListener("abort", cancel);
  }
  signal.throwIfAborted();
  throw new Error(`the task of "${params.name}" ended without a result`);
}
