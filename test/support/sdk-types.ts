// Type-checks request bodies as they went over the wire against the
// official SDKs' own request types, with the TypeScript compiler: a body jp
// sent that the SDK's type would not accept is a compile error reported here.
import * as path from "node:path";
import ts from "typescript";
import { REPO_ROOT } from "./workspace.js";

const TYPES = {
  anthropic: [
    'import type { MessageCreateParamsStreaming as Body } from "@anthropic-ai/sdk/resources/messages";',
  ],
  // Requests that use a beta feature (preserved thinking's block_binding) are the beta API's.
  "anthropic-beta": [
    'import type { MessageCreateParamsStreaming as Body } from "@anthropic-ai/sdk/resources/beta/messages/messages";',
  ],
  responses: [
    'import type { ResponseCreateParamsStreaming as Body } from "openai/resources/responses/responses";',
  ],
  chat: [
    'import type { ChatCompletionCreateParamsStreaming as Body } from "openai/resources/chat/completions";',
  ],
  // The REST body of generateContent, built from the SDK's own part types. Its enums
  // (FunctionCallingConfigMode, ThinkingLevel) travel as their string values.
  gemini: [
    'import type { Content, GenerationConfig, Tool, ToolConfig } from "@google/genai";',
    "type Wire<T> = T extends string ? `${T}` : T extends readonly (infer U)[] ? Wire<U>[] : T extends object ? { [K in keyof T]: Wire<T[K]> } : T;",
    "type Body = Wire<{ contents: Content[]; systemInstruction?: Content; tools?: Tool[]; toolConfig?: ToolConfig; generationConfig?: GenerationConfig }>;",
  ],
  // The library's Message, with the call ids the server gives (`call_7bvei3gw` in JP's recordings) and reads back, which its types do not name yet.
  ollama: [
    'import type { ChatRequest, Message, ToolCall } from "ollama";',
    "type Sent = Message & { tool_call_id?: string; tool_calls?: (ToolCall & { id?: string })[] };",
    'type Body = Omit<ChatRequest, "messages"> & { stream: true; messages: Sent[] };',
  ],
} as const;

/** The compile errors of assigning each body to the SDK's request type; empty when every body fits. */
export function sdkTypeErrors(kind: keyof typeof TYPES, bodies: readonly unknown[]): string[] {
  const file = path.join(REPO_ROOT, "test", `__sent_bodies_${kind}.ts`);
  const text = [
    ...TYPES[kind],
    ...bodies.map((b, i) => `export const body${i}: Body = ${JSON.stringify(b, null, 1)};`),
  ].join("\n");
  const options: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2023,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    strict: true,
    skipLibCheck: true,
    noEmit: true,
    types: [],
  };
  const host = ts.createCompilerHost(options);
  const readFile = host.readFile.bind(host);
  const getSourceFile = host.getSourceFile.bind(host);
  host.readFile = (name) => (name === file ? text : readFile(name));
  host.fileExists = (name) => name === file || ts.sys.fileExists(name);
  host.getSourceFile = (name, version) =>
    name === file ? ts.createSourceFile(name, text, version) : getSourceFile(name, version);
  const program = ts.createProgram([file], options, host);
  return ts
    .getPreEmitDiagnostics(program, program.getSourceFile(file))
    .map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
}
