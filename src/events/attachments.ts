// Owns what a question's attachments are, apart from any provider: text or a
// binary file (an image or a PDF), and the text ones as JP writes them before
// a question (an XML <documents> block). How each provider sends them is
// llm/attachments.ts's and the providers'.
import type { Attachment } from "./schema.js";

/** The kinds of binary attachment a provider may take as blocks of its own. */
export type BinaryKind = "image" | "pdf";

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
  a.source.split(/[?#]/, 1)[0]!.split(/[\\/]/).filter(Boolean).at(-1) ?? "attachment";

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
