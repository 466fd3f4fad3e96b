// Owns how a question's attachments go to a model: text as JP sends it (an
// XML <documents> block before the question, on providers without a text
// document block of their own; events/attachments.ts writes it), images and
// PDFs as each provider's blocks, and which kinds a provider takes at all.
import {
  type Attachment,
  binaryKind,
  isBinaryAttachment,
  questionWithDocuments,
  type BinaryAttachment,
  type BinaryKind,
} from "../events/index.js";
import { JpError } from "../errors.js";
import type { AcceptedFields } from "./types.js";

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
