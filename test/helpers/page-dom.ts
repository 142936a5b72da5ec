/**
 * The web view's script run in Node against the least of a DOM it uses (elements by id, text
 * content, children, data attributes, listeners), reading a real proxy's endpoints with its token:
 * what it draws can be read as text under `npm test`, with no browser. Timers run when the test
 * says (`settle`); the event stream is fed by the test (`emit`).
 */
import vm from "node:vm";
import { PAGE_SCRIPT } from "../../proxy/web/index.js";

export class FakeElement {
  className = "";
  hidden = false;
  tabIndex = -1;
  colSpan = 1;
  src = "";
  alt = "";
  readonly dataset: Record<string, string> = {};
  readonly attributes: Record<string, string> = {};
  children: FakeElement[] = [];
  readonly listeners: Record<string, ((e: unknown) => void)[]> = {};
  private text = "";

  constructor(readonly tagName: string) {}

  get textContent(): string {
    return this.text + this.children.map((c) => c.textContent).join("");
  }
  set textContent(v: string) {
    this.text = v;
    this.children = [];
  }
  append(...nodes: FakeElement[]): void {
    this.children.push(...nodes);
  }
  replaceChildren(...nodes: FakeElement[]): void {
    this.children = nodes;
  }
  setAttribute(k: string, v: string): void {
    this.attributes[k] = v;
  }
  addEventListener(type: string, f: (e: unknown) => void): void {
    (this.listeners[type] ??= []).push(f);
  }
  querySelector(): null {
    return null;
  }
  /** The cells' texts of each row (a table body), or each item's text (a list). */
  rows(): string[][] {
    return this.children.map((c) => (c.children.length > 0 ? c.children.map((d) => d.textContent) : [c.textContent]));
  }
}

export interface PageRun {
  $: (id: string) => FakeElement;
  /** One event of the stream, as the proxy sends it. */
  emit(event: unknown): void;
  /** Runs the timers due and waits for the script's reads to answer. */
  settle(): Promise<void>;
  /** Selects a session as a click on its row does. */
  choose(id: string): void;
}

export function runPage(base: string, token: string): PageRun {
  const byId = new Map<string, FakeElement>();
  const $ = (id: string): FakeElement => byId.get(id) ?? byId.set(id, new FakeElement("#" + id)).get(id)!;
  const timers: (() => void)[] = [];
  let stream: { onmessage?: (m: { data: string }) => void } | null = null;
  const context = {
    document: { getElementById: $, createElement: (tag: string) => new FakeElement(tag), querySelectorAll: () => [], activeElement: null },
    location: { origin: base },
    fetch: (path: string) => fetch(base + path, { headers: { authorization: `Bearer ${token}` } }),
    EventSource: class {
      constructor() {
        stream = this;
      }
    },
    setTimeout: (f: () => void) => timers.push(f),
    setInterval: () => 0,
    Date, Math, JSON, String, Number, Map, Set, isFinite, encodeURIComponent, Promise, Error,
  };
  vm.runInNewContext(PAGE_SCRIPT, context);
  const settle = async (): Promise<void> => {
    for (let i = 0; i < 5; i++) {
      for (const f of timers.splice(0)) f();
      await new Promise((r) => setTimeout(r, 60));
    }
  };
  const choose = (id: string): void => {
    const row = $("sessions").children.find((r) => r.dataset.id === id);
    for (const f of $("sessions").listeners.click ?? []) f({ target: { closest: () => row } });
  };
  return { $, emit: (e) => stream?.onmessage?.({ data: JSON.stringify(e) }), settle, choose };
}
