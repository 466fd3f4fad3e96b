// Owns the turn loop's port for what it shows as it goes. The terminal's
// implementation is render/stream.ts, which matches it by shape (render/ sits
// below turn/ and does not import it); cli/ joins the two.
import type { ToolCallRequest } from "../events/index.js";
import type { ProviderError } from "../llm/errors.js";

/** A running tool's live view. */
export interface ToolRunning {
  output(chunk: string): void;
  end(): void;
  /** The tool asks the person something: nothing is drawn over the question until the returned release. */
  hold(): () => void;
}

/** What the turn loop shows as it goes. */
export interface TurnOutput {
  waiting(): void;
  text(delta: string): void;
  reasoning(delta: string): void;
  /** Discard what was shown of a failed attempt. */
  restart(): void;
  retry(error: ProviderError, attempt: number, delayMs: number): void;
  /** The call line; `brief` (name only) when the tool shows its arguments its own way before asking. */
  toolCall(call: ToolCallRequest, brief?: boolean): void;
  toolResult(call: ToolCallRequest, content: string, isError: boolean): void;
  /**
   * A local tool starts running: its output is shown as it comes, with its
   * elapsed time, until `end` or until `signal` aborts (the terminal's view;
   * none elsewhere).
   */
  toolRunning?(call: ToolCallRequest, signal: AbortSignal): ToolRunning | undefined;
  /** A running call's progress, as its tool reports it. */
  toolProgress?(call: ToolCallRequest, line: string): void;
  responseDone(): void;
  notice(text: string): void;
}
