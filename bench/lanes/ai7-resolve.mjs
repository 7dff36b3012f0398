// Resolves `ai`, its subpaths, the provider spec packages and the provider packages as if imported from lanes/ai7.
const lane = new URL("../../lanes/ai7/package.json", import.meta.url).href;
const fromLane =
  /^(ai|ai\/test|ai\/internal|ai\/package\.json|@ai-sdk\/provider|@ai-sdk\/provider-utils|@ai-sdk\/anthropic|@ai-sdk\/openai)$/;

export async function resolve(specifier, context, nextResolve) {
  return nextResolve(specifier, fromLane.test(specifier) ? { ...context, parentURL: lane } : context);
}
