/**
 * The web view's one script, as the page carries it inline (pinned by its SHA-256 in the page's
 * Content-Security-Policy). It reads the proxy's own endpoints (status, the event stream, a
 * session's last cliff, its sawtooth) and builds the DOM with createElement and textContent only:
 * session text is never parsed as HTML and never becomes a link. Plain ES2020, no imports.
 */
export const PAGE_SCRIPT = String.raw`"use strict";
(() => {
  const $ = (id) => document.getElementById(id);
  const ID = /^[0-9a-f]{1,64}$/;
  const KEEP_EVENTS = 100;
  const state = { status: null, events: [], sort: "recent", selected: null, chartFor: "", cliffFor: "" };

  /** An element holding text: the only way session text enters the page. */
  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }
  const num = (v) => (typeof v === "number" && isFinite(v) ? v : 0);
  const int = (n) => Math.round(num(n)).toLocaleString("en-US");
  function short(n) {
    const v = num(n), a = Math.abs(v);
    if (a < 1000) return String(Math.round(v));
    if (a < 1e6) return (v / 1e3).toFixed(a < 1e4 ? 1 : 0) + "k";
    return (v / 1e6).toFixed(a < 1e7 ? 1 : 0) + "M";
  }
  /** Recalls and their tokens: "0", or "2 (7.9k)". */
  const recalls = (r) => (r && num(r.calls) > 0 ? int(r.calls) + " (" + short(r.tokens) + ")" : "0");
  const dollars = (d) => (typeof d !== "number" ? "—" : (d < 0 ? "-" : "") + "$" + Math.abs(d).toFixed(Math.abs(d) < 10 ? 3 : 2));
  function duration(ms) {
    const s = Math.max(0, Math.floor(ms / 1000));
    if (s < 60) return s + "s";
    if (s < 3600) return Math.floor(s / 60) + "m" + String(s % 60).padStart(2, "0") + "s";
    if (s < 86400) return Math.floor(s / 3600) + "h" + String(Math.floor(s / 60) % 60).padStart(2, "0") + "m";
    return Math.floor(s / 86400) + "d" + String(Math.floor(s / 3600) % 24).padStart(2, "0") + "h";
  }
  function fill(parent, children) {
    parent.replaceChildren(...children);
  }
  function problem(text) {
    $("problem").textContent = text || "";
    $("problem").hidden = !text;
  }

  async function getJson(path) {
    const r = await fetch(path, { credentials: "same-origin", cache: "no-store" });
    if (r.status === 404) return null;
    if (r.status === 401) throw new Error("the proxy asks for its admin token: open the link cliffcompaction watch --web prints");
    if (!r.ok) throw new Error(path.split("?")[0] + " answered " + r.status);
    return r.json();
  }

  async function refresh() {
    try {
      state.status = await getJson("/_cliff/status?sessions=1000");
      problem("");
    } catch (e) {
      problem(String(e && e.message) + "; retrying");
    }
    render();
  }
  let pending = null;
  function soon() {
    if (pending === null) pending = setTimeout(() => { pending = null; refresh(); }, 250);
  }

  function header(s) {
    const c = s.config || {};
    const t = typeof s.thresholdShare === "number" ? Math.round(s.thresholdShare * 100) + "% of each model's window" : s.thresholdRule === "default" ? "by model" : int(c.thresholdTokens) + " tokens";
    $("listen").textContent = String(s.listen || location.origin);
    $("facts").textContent = "version " + (s.version || "?") + " · up " + duration(num(s.uptimeSeconds) * 1000) + " · threshold " + t + " · " + (c.profile || "?") + " profile · keepRecent " + (c.keepRecent === undefined ? "?" : c.keepRecent) + (c.shadow ? " · shadow" : "");
    const u = s.usage || {};
    $("totals").textContent = "requests " + int(s.compactable) + " · cliffs " + int(s.cliffs) + " · reuses " + int(s.reuses) + (s.recalls && num(s.recalls.calls) > 0 ? " · recalls " + int(s.recalls.calls) + " (" + short(s.recalls.tokens) + " tokens)" : "") + " · saved " + short(s.tokensSaved) + " tokens, net " + dollars(s.netDollars) + (num(s.netDollars) < 0 ? " (below zero while the cliffs' cache rewrites outweigh what their spans saved: see each cliff's bill)" : "");
    $("provider").textContent = "provider's count: input " + short(u.input) + " · cache read " + short(u.cacheRead) + " · cache write " + short(u.cacheWrite) + " · output " + short(u.output);
  }

  function why(s, w) {
    if (w.reason) return String(w.reason) + (w.warning !== undefined ? " (past its long-context tier)" : "");
    if (typeof s.thresholdShare === "number" && w.window) return Math.round(s.thresholdShare * 100) + "% of its " + short(w.window) + " window (" + String(w.source || "table") + ")";
    return "the thresholdTokens setting";
  }
  /** Per model: what the proxy's window table says, else the threshold its newest session was decided against. */
  function thresholds(s) {
    const byModel = new Map(Object.entries(s.windows || {}));
    for (const x of s.sessions || []) if (x.model && !byModel.has(x.model)) byModel.set(x.model, { thresholdTokens: x.threshold });
    const rows = [...byModel].map(([model, w]) => {
      const tr = el("tr");
      tr.append(el("td", "", model || "(no model)"), el("td", "num", int(w.thresholdTokens)), el("td", "num", w.window ? short(w.window) : "—"), el("td", "", why(s, w)));
      return tr;
    });
    if (rows.length === 0) {
      const tr = el("tr");
      tr.append(el("td", "muted", "no model seen yet"));
      rows.push(tr);
    }
    fill($("thresholds"), rows);
  }

  const SORTS = {
    recent: () => 0,
    cost: (a, b) => num(b.dollars) - num(a.dollars),
    cliffs: (a, b) => num(b.cliffs) - num(a.cliffs),
  };
  function sessions() {
    const list = (state.status && state.status.sessions) || [];
    return list.filter((x) => ID.test(String(x.id))).map((x, i) => [x, i]).sort((p, q) => SORTS[state.sort](p[0], q[0]) || p[1] - q[1]).map((p) => p[0]);
  }

  function sessionRow(x, now) {
    const tr = el("tr", x.id === state.selected ? "selected" : "");
    tr.tabIndex = 0;
    tr.dataset.id = x.id;
    tr.setAttribute("aria-selected", x.id === state.selected ? "true" : "false");
    const live = now - Date.parse(x.lastSeen) < 60000;
    const hit = typeof x.cacheHitRate === "number" ? Math.round(x.cacheHitRate * 100) + "%" : "—";
    const u = x.usage || {};
    tr.append(
      el("td", "id", (live ? "● " : "○ ") + x.id), el("td", "wide", x.model || ""), el("td", "num", int(x.requests)), el("td", "num cliffs", int(x.cliffs)),
      el("td", "num wide", x.refetches ? int(x.refetches.count) + " (" + short(x.refetches.tokens) + ")" : ""), el("td", "num wide recalls", recalls(x.recalls)),
      el("td", "num wide", short(x.tokensOut) + " / " + short(x.threshold)), el("td", "num wide", short(u.input) + " · " + short(u.cacheRead) + " · " + short(u.cacheWrite) + " · " + short(u.output)),
      el("td", "num wide", hit), el("td", "num cost", dollars(x.dollars)), el("td", "num", x.ledger && x.ledger.cliffs > 0 ? dollars(x.ledger.netDollars) : ""),
      el("td", "num wide", duration(now - Date.parse(x.started))),
    );
    return tr;
  }

  function render() {
    const s = state.status;
    if (s === null) return;
    header(s);
    thresholds(s);
    const list = sessions();
    // The first view is the newest session that has a cliff to show, else the newest.
    if (state.selected === null && list.length > 0) {
      const newest = ((s.sessions || []).filter((x) => ID.test(String(x.id))));
      state.selected = (newest.find((x) => num(x.cliffs) > 0) || newest[0] || list[0]).id;
    }
    const now = Date.now();
    const rows = list.map((x) => sessionRow(x, now));
    if (rows.length === 0) {
      const tr = el("tr");
      const td = el("td", "muted", "no sessions yet");
      td.colSpan = 12;
      tr.append(td);
      rows.push(tr);
    }
    const focused = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.id : undefined;
    fill($("sessions"), rows);
    if (focused) { const again = $("sessions").querySelector("tr[data-id='" + focused + "']"); if (again) again.focus(); }
    $("count").textContent = list.length + " of " + int(s.sessionCount) + " sessions";
    for (const b of document.querySelectorAll("button[data-sort]")) b.setAttribute("aria-pressed", b.dataset.sort === state.sort ? "true" : "false");
    selected(list.find((x) => x.id === state.selected));
  }

  function selected(x) {
    $("detail").hidden = x === undefined;
    if (x === undefined) return;
    $("detail-title").textContent = "Session " + x.id + " (" + (x.model || "no model") + "): " + int(x.requests) + " request" + (num(x.requests) === 1 ? "" : "s") + ", " + int(x.cliffs) + " cliff" + (num(x.cliffs) === 1 ? "" : "s");
    const key = x.id + ":" + x.requests;
    if (state.chartFor !== key) {
      state.chartFor = key;
      $("chart").src = "/_cliff/sessions/" + x.id + "/sawtooth.svg?r=" + encodeURIComponent(String(x.requests));
      $("chart").alt = "context per request of session " + x.id + ", " + int(x.cliffs) + " cliffs marked";
    }
    if (state.cliffFor !== x.id + ":" + x.cliffs + ":" + x.lastCliff) {
      state.cliffFor = x.id + ":" + x.cliffs + ":" + x.lastCliff;
      if (x.lastCliff) loadCliff(x.id);
      else cliffView(null);
    }
    const bills = ((x.ledger && x.ledger.bills) || []).map((b) => el("li", "", String(b.time).slice(11, 19) + ": shed " + short(b.shed) + " tokens over " + int(b.requests) + (num(b.requests) === 1 ? " request" : " requests") + ", rewrote " + short(b.rewrote) + ", read back " + short(b.readBack) + ", net " + dollars(b.netDollars) + ", recalls " + recalls(b.recalls)));
    fill($("bills"), bills.length ? bills : [el("li", "muted", "no cliff yet")]);
    const refetched = ((x.refetches && x.refetches.cliffs) || []).map((c) => el("li", "", "cliff at message " + int(c.cut) + ": " + int(c.count) + (num(c.count) === 1 ? " re-fetch, " : " re-fetches, ") + short(c.tokens) + " tokens: " + (c.calls || []).map((k) => k.tool + " (" + short(k.tokens) + ", message " + int(k.message) + ")").join(", ")));
    fill($("refetches"), refetched.length ? refetched : [el("li", "muted", "none: no call asked again for what a cliff dropped")]);
    const recalled = ((x.recalls && x.recalls.cliffs) || []).map((c) => el("li", "", "cliff at message " + int(c.cut) + ": " + int(c.calls) + (num(c.calls) === 1 ? " recall" : " recalls") + " in " + int(c.rounds) + (num(c.rounds) === 1 ? " round, " : " rounds, ") + short(c.tokens) + " tokens"));
    fill($("recalls"), recalled.length ? recalled : [el("li", "muted", "none: the model recalled nothing a cliff dropped")]);
  }

  async function loadCliff(id) {
    let c = null;
    try {
      c = await getJson("/_cliff/sessions/" + id + "/last-cliff");
    } catch (e) {
      problem(String(e && e.message));
    }
    if (id === state.selected) cliffView(c);
  }

  function cliffView(c) {
    if (c === null) {
      $("cliff-head").textContent = "No cliff in this session yet (or its text was not kept).";
      fill($("summary"), []);
      fill($("dropped"), []);
      return;
    }
    $("cliff-head").textContent = "Last cliff at " + String(c.time).slice(0, 19).replace("T", " ") + ": " + int(c.messagesIn) + "→" + int(c.messagesOut) + " messages, " + int(c.tokensIn) + "→" + int(c.tokensOut) + " tokens; " + int((c.dropped || []).length) + " messages dropped" + (c.recalls ? "; recalls since: " + recalls(c.recalls) : "");
    $("summary").textContent = String(c.summary);
    fill($("dropped"), (c.dropped || []).map((d) => {
      const li = el("li");
      li.append(el("span", "role", "[" + d.role + ", " + int(d.chars) + " chars] "), el("span", "excerpt", d.text + (String(d.text).length < d.chars ? " …" : "")));
      return li;
    }));
  }

  function eventRow(e) {
    const u = e.usage ? " · provider in " + short(e.usage.input) + " cache " + short(e.usage.cacheRead) + "/" + short(e.usage.cacheWrite) + " out " + short(e.usage.output) : "";
    const li = el("li", e.action === "cliff" || e.action === "escalate" ? "cliff" : "");
    const r = e.recall ? " · recalls " + int(e.recall.calls) + " (" + short(e.recall.tokens) + " tok)" + (e.recall.cliff ? ", " + int(e.recall.cliff.calls) + " since its cliff" : "") : "";
    li.textContent = String(e.time).slice(11, 19) + " " + (e.session || "-") + " " + e.action + (e.shadow ? "*" : "") + " " + int(e.messagesIn) + "→" + int(e.messagesOut) + " msgs " + int(e.tokensIn) + "→" + int(e.tokensOut) + " tok " + (e.status || "no upstream") + r + u;
    return li;
  }
  /** The selected session's events, newest first (all sessions' while none is selected). */
  function drawnEvents() {
    const mine = state.events.filter((e) => state.selected === null || e.session === state.selected);
    $("events-title").textContent = state.selected === null ? "Events" : "Events of session " + state.selected;
    fill($("events"), mine.length ? mine.slice().reverse().map(eventRow) : [el("li", "muted", "none since this page opened")]);
  }
  let drawEvents = null;
  function events() {
    if (drawEvents === null) drawEvents = setTimeout(() => { drawEvents = null; drawnEvents(); }, 100);
  }

  function follow() {
    const stream = new EventSource("/_cliff/events");
    stream.onopen = () => { $("live").textContent = "live"; };
    stream.onerror = () => { $("live").textContent = "reconnecting…"; };
    stream.onmessage = (m) => {
      let e;
      try { e = JSON.parse(m.data); } catch { return; }
      if (e === null || typeof e !== "object") return;
      state.events.push(e);
      if (state.events.length > KEEP_EVENTS) state.events.splice(0, state.events.length - KEEP_EVENTS);
      events();
      soon();
    };
  }

  function choose(id) {
    if (!ID.test(id)) return;
    state.selected = id;
    render();
    drawnEvents();
  }
  function keys(e) {
    const row = e.target.closest && e.target.closest("tr[data-id]");
    if (row === null || row === undefined) return;
    if (e.key === "Enter" || e.key === " ") { e.preventDefault(); choose(row.dataset.id); }
    else if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      e.preventDefault();
      const next = e.key === "ArrowDown" ? row.nextElementSibling : row.previousElementSibling;
      if (next && next.dataset.id) next.focus();
    }
  }

  $("sessions").addEventListener("click", (e) => { const row = e.target.closest("tr[data-id]"); if (row) choose(row.dataset.id); });
  $("sessions").addEventListener("keydown", keys);
  for (const b of document.querySelectorAll("button[data-sort]")) b.addEventListener("click", () => { state.sort = b.dataset.sort; render(); });
  refresh();
  follow();
  setInterval(refresh, 5000);
})();
`;
