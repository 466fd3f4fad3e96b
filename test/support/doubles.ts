// In-memory stand-ins for the turn loop's ports (Provider, Prompter, TurnLog,
// TurnOutput): the loop's behaviour tested without HTTP, a terminal or a disk.
import type { Event } from "../../src/events/index.js";
import type { ModelRequest, Provider, StreamPart } from "../../src/llm/types.js";
import type { TurnOutput } from "../../src/turn/output.js";
import type { Prompter } from "../../src/tools/prompter.js";
import type { TurnLog } from "../../src/turn/types.js";

/** A provider that answers each request with the next scripted list of stream parts, recording the requests. */
export function scriptedProvider(answers: StreamPart[][]): Provider & { requests: ModelRequest[] } {
  const requests: ModelRequest[] = [];
  return {
    name: "scripted",
    baseUrl: "memory://scripted",
    accepts: {
      cacheKey: false,
      cacheControl: false,
      reasoning: "none",
      toolChoice: "named",
      thinksWhileForced: true,
      attachments: [],
    },
    requests,
    async *stream(request, signal) {
      requests.push(structuredClone({ ...request, events: [...request.events] }));
      const parts = answers.shift();
      if (!parts) throw new Error("the scripted provider has no answer left");
      for (const part of parts) {
        if (signal.aborted) return;
        await Promise.resolve();
        yield part;
      }
    },
  };
}

/** A conversation log held in memory, with the groups appended. */
export function memoryLog(events: Event[] = []): TurnLog & { groups: Event[][] } {
  const groups: Event[][] = [];
  return {
    groups,
    events: () => events,
    append(group) {
      groups.push([...group]);
      events.push(...group);
    },
  };
}

/** A prompter with someone at it who gives `answers` in order (keys for choices, text for questions). */
export function scriptedPrompter(answers: string[] = []): Prompter & { said: string[]; asked: string[] } {
  const said: string[] = [];
  const asked: string[] = [];
  return {
    interactive: true,
    said,
    asked,
    choose(question) {
      asked.push(question);
      return Promise.resolve(answers.shift() ?? "n");
    },
    ask(question) {
      asked.push(question);
      return Promise.resolve(answers.shift() ?? "");
    },
    editText: (text) => Promise.resolve(text),
    say(text) {
      said.push(text);
    },
  };
}

/** A turn output that keeps what would have been shown: the answer's text, and a line for everything else. */
export function recordingOutput(): TurnOutput & { written: () => string; shown: string[] } {
  const shown: string[] = [];
  let written = "";
  return {
    shown,
    written: () => written,
    waiting: () => undefined,
    text(delta) {
      written += delta;
    },
    reasoning: (delta) => void shown.push(`reasoning: ${delta}`),
    restart: () => void shown.push("restart"),
    retry: () => void shown.push("retry"),
    toolCall: (call) => void shown.push(`call ${call.name}`),
    toolResult: (_call, content, isError) => void shown.push(`${isError ? "error" : "result"}: ${content}`),
    responseDone: () => undefined,
    notice: (text) => void shown.push(`notice: ${text}`),
  };
}
