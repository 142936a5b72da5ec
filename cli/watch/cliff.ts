/** `watch`'s view of one session's last cliff: the summary it sent beside what it dropped, side by side. */
import type { LastCliff } from "../../proxy/observe/index.js";
import { fit, int, recalls } from "./frame.js";
import { inertCell, takeWidth, textWidth } from "../terminal-text.js";

/** A session's last cliff as the proxy serves it, with the session it belongs to and the recalls its refs cost since. */
export type CliffView = LastCliff & { id: string; model: string; recalls?: { calls: number; tokens: number } };

/** Text made inert and wrapped to `width` terminal cells a line (wide characters 2), long words cut. */
export function wrap(text: string, width: number): string[] {
  const out: string[] = [];
  for (const para of text.split("\n")) {
    let line = "";
    for (const word of inertCell(para).split(/ +/)) {
      let w = word;
      while (textWidth(w) > width) {
        if (line !== "") out.push(line);
        const head = takeWidth(w, width) || [...w][0];
        out.push(head);
        line = "";
        w = w.slice(head.length);
      }
      const next = line === "" ? w : `${line} ${w}`;
      if (textWidth(next) > width) {
        out.push(line);
        line = w;
      } else line = next;
    }
    out.push(line);
  }
  return out;
}

/** The view's lines from `scroll` on, at most `height`, each `width` wide. */
export function cliffFrame(c: CliffView, width: number, height: number, scroll: number): string[] {
  const half = Math.max(10, Math.floor((width - 3) / 2));
  const left = wrap(c.summary, half);
  const right = c.dropped.flatMap((d) => wrap(`[${d.role}, ${int(d.chars)} chars] ${d.text}${d.text.length < d.chars ? " …" : ""}`, half));
  const head = [
    fit(`last cliff of ${c.id} (${c.model}) at ${c.time.slice(0, 19).replace("T", " ")}: ${int(c.messagesIn)}→${int(c.messagesOut)} msgs, ${int(c.tokensIn)}→${int(c.tokensOut)} tokens${c.recalls !== undefined ? `, recalls since ${recalls(c.recalls)}` : ""}`, width).trimEnd(),
    `${fit("SUMMARY SENT", half)} │ DROPPED (${int(c.dropped.length)} messages)`,
  ];
  const rows = Math.max(1, height - head.length - 1);
  const total = Math.max(left.length, right.length);
  const from = Math.max(0, Math.min(scroll, total - rows));
  const body: string[] = [];
  for (let i = from; i < Math.min(total, from + rows); i++) body.push(`${fit(left[i] ?? "", half)} │ ${right[i] ?? ""}`.trimEnd());
  return [...head, ...body, `↑↓ scroll · esc: back · q: quit   (${from + 1}–${Math.min(total, from + rows)} of ${total})`];
}
