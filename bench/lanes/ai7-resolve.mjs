// Resolves `ai`, its subpaths, the provider spec packages and the provider packages as if imported from lanes/ai7:
// every such import, or (`onlyFrom`, a URL prefix, given when registered) only those of the modules under it.
const lane = new URL("../../lanes/ai7/package.json", import.meta.url).href;
const fromLane =
  /^(ai|ai\/test|ai\/internal|ai\/package\.json|@ai-sdk\/provider|@ai-sdk\/provider-utils|@ai-sdk\/anthropic|@ai-sdk\/openai)$/;
let onlyFrom = "";

export function initialize(data) {
  onlyFrom = data?.onlyFrom ?? "";
}

export async function resolve(specifier, context, nextResolve) {
  const redirect = fromLane.test(specifier) && (context.parentURL ?? "").startsWith(onlyFrom);
  return nextResolve(specifier, redirect ? { ...context, parentURL: lane } : context);
}
