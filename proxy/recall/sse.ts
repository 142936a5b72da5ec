/** Server-sent events read as they arrive (a line may be split anywhere, a character too) and written. */
import { StringDecoder } from "node:string_decoder";
import type { SseEvent } from "./types.js";

export class SseReader {
  private readonly decoder = new StringDecoder("utf8");
  private buffered = "";
  private event: string | undefined;
  private data: string[] = [];

  constructor(private readonly emit: (e: SseEvent) => void) {}

  push(chunk: Buffer): void {
    this.lines(this.decoder.write(chunk));
  }

  end(): void {
    this.lines(this.decoder.end() + "\n\n");
  }

  private lines(text: string): void {
    this.buffered += text;
    let from = 0;
    for (let nl = this.buffered.indexOf("\n", from); nl >= 0; nl = this.buffered.indexOf("\n", from)) {
      const line = this.buffered.slice(from, nl).replace(/\r$/, "");
      from = nl + 1;
      this.line(line);
    }
    this.buffered = this.buffered.slice(from);
  }

  private line(line: string): void {
    if (line === "") {
      if (this.data.length > 0) this.emit({ event: this.event, data: this.data.join("\n") });
      this.event = undefined;
      this.data = [];
      return;
    }
    if (line.startsWith(":")) return;
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
    if (field === "event") this.event = value;
    else if (field === "data") this.data.push(value);
  }
}

/** One event as written: its name line when it has one, its data line. */
export function sseText(event: string | undefined, data: unknown): string {
  return (event === undefined ? "" : `event: ${event}\n`) + `data: ${typeof data === "string" ? data : JSON.stringify(data)}\n\n`;
}

/** An event's data as a JSON object, or null when it is not one (such an event goes to the client as it came). */
export function eventObject(e: SseEvent): Record<string, unknown> | null {
  try {
    const v: unknown = JSON.parse(e.data);
    return typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
