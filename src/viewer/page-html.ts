// The page as served (its script and style as files of the same origin) or as one self-contained file
// (both inlined, the logs inlined as JSON). Each has a Content-Security-Policy that lets it load nothing
// from anywhere else: the exported file opens from a CI artifact with no network, and what a log holds (a
// tool result can be HTML) is only ever shown as text.
import type { PageAssets } from "./page-assets.js";

/** What the exported page shows: each run file's text, and its media as data URLs. */
export interface InlineLogs {
  readonly source: string;
  readonly files: readonly { readonly name: string; readonly text: string }[];
  readonly media: Readonly<Record<string, string>>;
}

const SERVED_PAGE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; media-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'";

/**
 * The Content-Security-Policy header of the served page: its `<meta>` policy, and `frame-ancestors`, which
 * a header alone can set (in a `<meta>`, Chromium ignores it and logs an error to the console).
 */
export const SERVED_CSP = `${SERVED_PAGE_CSP}; frame-ancestors 'none'`;

const INLINE_CSP =
  "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:; media-src data:; base-uri 'none'; form-action 'none'";

/** The page a viewer server serves: it reads the logs from the server's API. */
export function servedPage(assets: PageAssets): string {
  return fill(assets.html, {
    csp: SERVED_PAGE_CSP,
    style: '<link rel="stylesheet" href="viewer.css">',
    script: '<script src="viewer.js" defer></script>',
    data: "",
  });
}

/** One self-contained page: style, script and `logs` inside it. */
export function inlinePage(assets: PageAssets, logs: InlineLogs): string {
  // `<` escaped: no text in the data or the script can close the script element it sits in.
  const data = JSON.stringify(logs).replace(/</g, "\\u003c");
  return fill(assets.html, {
    csp: INLINE_CSP,
    style: `<style>${assets.css.replace(/<\//g, "<\\/")}</style>`,
    script: `<script>${assets.js.replace(/<\/script/gi, "<\\/script")}</script>`,
    data: `<script type="application/json" id="run-log-data">${data}</script>`,
  });
}

function fill(html: string, parts: Record<"csp" | "style" | "script" | "data", string>): string {
  return html.replace(
    /<!--(CSP|STYLE|SCRIPT|DATA)-->/g,
    (_m, key: string) => parts[key.toLowerCase() as "csp"],
  );
}
