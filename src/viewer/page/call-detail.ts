// One call of an opened step, as the page shows it: its title, input, the result the model read (with its
// pictures and files), and for a call the server failed, what it threw (the run log's `cause`).
import type { CallRecord } from "../../run-log/run-log-format.js";
import { cutNote, h, longText, pretty, type Child } from "./dom.js";
import { mediaView } from "./media-view.js";

/** A call's field under a small label: two boxes one under the other cannot tell which is the input. */
function labelled(label: string, box: HTMLElement, note: Child): HTMLElement {
  return h("div", { className: "field" }, h("div", { className: "field-label" }, label), box, note);
}

/** One call of an opened step: its input, what the model read back with its media, and a failure's cause. */
export function callDetail(call: CallRecord, mediaUrl: (file: string) => string | undefined): HTMLElement {
  return h(
    "div",
    { className: "call-detail", "data-tool": call.tool },
    h(
      "div",
      { className: "call-title" },
      `${call.tool} (${call.id})`,
      call.provider && ` → ${call.provider.providerClass} ${call.provider.id}`,
    ),
    call.input !== undefined &&
      labelled("input", longText("input", pretty(call.input)), cutNote(call, "input")),
    call.result !== undefined &&
      labelled(
        call.ok ? "result" : "error",
        longText(call.ok ? "result" : "result error", call.result),
        cutNote(call, "result"),
      ),
    // What the server threw, which the model and the client were not told: the operator's to read.
    call.cause !== undefined &&
      h(
        "div",
        { className: "cause" },
        h("h5", {}, "Cause (not told to the model)"),
        longText("error", call.cause),
        cutNote(call, "cause"),
      ),
    (call.media ?? []).map((m) => mediaView(m, mediaUrl, call.tool)),
  );
}
