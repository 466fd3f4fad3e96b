// Owns what an MCP tool result becomes in a conversation: text the model
// reads (every kind of content said in words, none dropped silently) and the
// images beside it, which providers that take images in tool results get as
// image blocks. Pure: the SDK's result arrives as plain data.
import { isJsonObject } from "../events/json.js";
import type { ToolImage } from "../tools/types.js";
import { trimEndOf } from "../trim.js";

export interface McpOutcome {
  content: string;
  isError: boolean;
  images: ToolImage[];
}

const str = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined);

/** Bytes of base64 data, for notes ("image/png, 12 KB"). */
function decodedSize(base64: string): string {
  const bytes = Math.floor((trimEndOf(base64, "=").length * 3) / 4);
  return bytes < 1024 ? `${bytes} bytes` : `${Math.round(bytes / 1024)} KB`;
}

/** One content block as text, and its image if it is one. */
function contentBlock(block: unknown, images: ToolImage[]): string {
  if (!isJsonObject(block)) return "";
  switch (block.type) {
    case "text":
      return str(block.text) ?? "";
    case "image": {
      const data = str(block.data) ?? "";
      const mediaType = str(block.mimeType) ?? "image/png";
      images.push({ media_type: mediaType, data });
      return `[image: ${mediaType}, ${decodedSize(data)}]`;
    }
    case "audio":
      return `[audio: ${str(block.mimeType) ?? "audio"}, ${decodedSize(str(block.data) ?? "")}; not passed on]`;
    case "resource_link": {
      const about = [str(block.mimeType), str(block.description)].filter(Boolean).join("; ");
      return `[resource link: ${str(block.name) ?? str(block.uri) ?? ""} <${str(block.uri) ?? ""}>${about ? ` (${about})` : ""}]`;
    }
    case "resource": {
      const resource = isJsonObject(block.resource) ? block.resource : {};
      const uri = str(resource.uri) ?? "";
      const text = str(resource.text);
      if (text !== undefined)
        return `[resource <${uri}>${resource.mimeType ? ` (${str(resource.mimeType)})` : ""}]\n${text}`;
      return `[resource <${uri}>: ${str(resource.mimeType) ?? "binary"}, ${decodedSize(str(resource.blob) ?? "")}; not passed on]`;
    }
    default:
      return `[${String(block.type)} content jp does not show]`;
  }
}

/**
 * A `tools/call` result as a tool result. Structured content is given as JSON
 * when no text block carries it already (servers should send both, and many
 * send only one).
 */
export function mcpOutcome(result: unknown): McpOutcome {
  const images: ToolImage[] = [];
  if (!isJsonObject(result)) return { content: "the server sent no result", isError: true, images };
  const blocks = Array.isArray(result.content) ? result.content : [];
  const parts = blocks.map((b) => contentBlock(b, images)).filter((p) => p !== "");
  // One representation reaches the model: the content the server gave, its structured
  // content only when it gave none (servers repeat it as text, the spec asks them to).
  const structured = result.structuredContent;
  if (structured !== undefined && parts.length === 0) parts.push(JSON.stringify(structured, null, 2));
  return { content: parts.join("\n"), isError: result.isError === true, images };
}
