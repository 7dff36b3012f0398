import { MarkdownSection, PromptTemplate, SectionVisibility } from "entity-tools";
import { RefundTools } from "./refund-tools.js";

/**
 * The support desk's instructions. The policy manual is long, so it starts summarized: the model reads
 * it with `read_section` when a case needs it, and reading it unlocks the refund tools.
 */
export function supportPrompt(refunds: RefundTools = new RefundTools()): PromptTemplate {
  return new PromptTemplate({
    ns: "examples",
    key: "support-desk",
    sections: [
      new MarkdownSection({
        key: "role",
        title: "Role",
        template: "You are the customer support agent of ${company}. Be brief, friendly and exact.",
      }),
      new MarkdownSection({
        key: "policies",
        title: "Policy manual",
        template: "Follow these policies for every case. Quote the rule you apply.",
        summary: "Refund, shipping and warranty policies, and the tools to act on them.",
        visibility: SectionVisibility.SUMMARY,
        children: [
          new MarkdownSection({
            key: "refunds",
            title: "Refunds",
            template: [
              "- Items arriving damaged are refunded in full within 30 days of delivery.",
              "- Always check eligibility before issuing a refund.",
              "- Refund only the damaged item, never shipping, unless the whole order is damaged.",
            ].join("\n"),
            tools: [refunds],
          }),
          new MarkdownSection({
            key: "shipping",
            title: "Shipping",
            template:
              "Standard shipping takes 3-5 business days; express 1-2. Lost parcels are re-sent free of charge.",
          }),
          new MarkdownSection({
            key: "warranty",
            title: "Warranty",
            template:
              "Electronics carry a 2-year warranty covering manufacturing defects, not accidental damage.",
            summary: "Two-year warranty on electronics.",
            visibility: SectionVisibility.SUMMARY,
          }),
        ],
      }),
      new MarkdownSection({
        key: "style",
        title: "Style",
        template: "Answer in at most three sentences. Never promise what the policies do not allow.",
      }),
    ],
  });
}
