// The ai 7 lane's tests (vitest.config.ts, `execArgv`): the built package in dist/, which Node loads itself
// in the "bundle" project (vitest.shared.ts), imports `ai` and the provider spec from this lane, as the
// config's aliases make every module vitest loads do. Only dist/'s imports: the packages that Node loads
// from the repository's node_modules keep finding the repository's ai 6, as they do under the aliases.
import { register } from "node:module";

register("../../bench/lanes/ai7-resolve.mjs", import.meta.url, {
  data: { onlyFrom: new URL("../../dist/", import.meta.url).href },
});
