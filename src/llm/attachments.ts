// Owns how a question's attachments go to a model: text as JP sends it (an
// XML <documents> block before the question, on providers without a text
// document block of their own), images and PDFs as each provider's blocks,
// and which kinds a provider takes at all.
import type { Attachment } from "../events/index.js";
import { JpError } from "../errors.js";
import type { AcceptedFields, BinaryKind } from "./types.js";

export type TextAttachment = Extract<Attachment, { text: string }>;
export type BinaryAttachment = Extract<Attachment, { data: string }>;

export const isTextAttachment = (a: Attachment): a is TextAttachment => "text" in a;
export const isBinaryAttachment = (a: Attachment): a is BinaryAttachment => "data" in a && !("text" in a);

/** What a binary attachment is, by its media type. */
export function binaryKind(a: BinaryAttachment): BinaryKind {
  return a.media_type === "application/pdf" ? "pdf" : "image";
}

export const dataUrl = (a: BinaryAttachment): string => `data:${a.media_type};base64,${a.data}`;

/** The last part of a path or URL: what a file block is named. */
export const fileName = (a: Attachment): string =>
  a.source
    .replace(/[?#].*$/, "")
    .split(/[\\/]/)
    .filter(Boolean)
    .at(-1) ?? "attachment";

export const escapeXml = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** Text in CDATA when it holds markup (a `]]>` inside split across two), as JP's serializer does. */
const xmlText = (text: string, cdata: boolean) =>
  cdata ? `<![CDATA[${text.split("]]>").join("]]]]><![CDATA[>")}]]>` : escapeXml(text);

/** JP's `<documents>` block of the text attachments (jp_conversation's text_attachments_to_xml). */
export function documentsXml(attachments: readonly Attachment[]): string | undefined {
  const texts = attachments.filter(isTextAttachment);
  if (texts.length === 0) return undefined;
  const cdata = texts.some((a) => /[<>]/.test(a.text));
  const documents = texts.map(
    (a, index) =>
      `  <document>\n    <index>${index}</index>\n    <source>${escapeXml(a.source)}</source>\n    <content>${xmlText(a.text, cdata)}</content>\n  </document>`,
  );
  return `<documents>\n${documents.join("\n")}\n</documents>`;
}

/** The question with its text attachments before it, for providers that take them as text. */
export function questionWithDocuments(content: string, attachments: readonly Attachment[] = []): string {
  const xml = documentsXml(attachments);
  return xml === undefined ? content : `${xml}\n\n${content}`;
}

/** How one API spells a question's parts: its text, an image, a PDF. */
export interface QuestionParts<T> {
  text: (text: string) => T;
  image: (a: BinaryAttachment) => T;
  pdf: (a: BinaryAttachment) => T;
}

/**
 * A question as OpenAI's APIs take it: the text (with its text attachments)
 * alone, or, with images or PDFs, a text part followed by one part for each.
 */
export function questionParts<T>(
  content: string,
  attachments: readonly Attachment[] = [],
  parts: QuestionParts<T>,
): string | T[] {
  const binary = attachments.filter(isBinaryAttachment);
  const text = questionWithDocuments(content, attachments);
  if (binary.length === 0) return text;
  return [parts.text(text), ...binary.map((a) => (binaryKind(a) === "pdf" ? parts.pdf(a) : parts.image(a)))];
}

const KIND_NAMES: Record<BinaryKind, string> = { image: "images", pdf: "PDFs" };

/** Refuse attachments a provider cannot send, before anything is recorded or sent. */
export function checkAttachments(
  attachments: readonly Attachment[],
  accepts: AcceptedFields,
  provider: string,
): void {
  for (const a of attachments.filter(isBinaryAttachment)) {
    const kind = binaryKind(a);
    if (!accepts.attachments.includes(kind))
      throw new JpError(
        "llm.attachment_refused",
        `${provider} takes no ${KIND_NAMES[kind]}, so ${a.source} cannot be attached`,
        {
          hint: `ask a model of a provider that takes ${KIND_NAMES[kind]} (-m), or attach text instead`,
          exitCode: 2,
        },
      );
  }
}
