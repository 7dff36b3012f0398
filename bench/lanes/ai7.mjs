// `npm run bench:ai7`: the same benchmarks against ai 7 (lanes/ai7, on its Node 22). The built package and
// the bench import `ai` and its spec packages by name; this hook resolves those names from the lane, so
// one process measures one `ai`.
import { register } from "node:module";

register("./ai7-resolve.mjs", import.meta.url);
