// Owns the summariser interface: what compaction asks of a model when a rule
// wants a derived summary. The summariser reads raw events, never a projection.
import type { Event } from "../events/index.js";
import { JpError } from "../errors.js";

export interface SummaryRequest {
  /** Raw events of the turns to summarise. */
  events: readonly Event[];
  instructions?: string;
  context?: string;
  model: string;
  signal?: AbortSignal;
}

export interface Summarizer {
  summarize(request: SummaryRequest): Promise<{ text: string; model: string }>;
}

export class SummarizerUnavailableError extends JpError {
  constructor(model: string) {
    super(
      "llm.summarizer_unavailable",
      `generating a summary needs a model provider, and this build cannot reach ${model} yet`,
      {
        hint: "write the summary yourself with --summary TEXT, or use mechanical policies (-r, -t)",
      },
    );
  }
}

/** The summariser until providers are connected: every request fails with a clear message. */
export const unavailableSummarizer: Summarizer = {
  summarize: (request) => Promise.reject(new SummarizerUnavailableError(request.model)),
};
