/**
 * The web view's style sheet, inline in the page and pinned by its hash like the script. A summary
 * or a dropped text can be one long token: the columns are minmax(0, 1fr), so it wraps inside its
 * own box instead of widening its column past the other's share.
 */
export const PAGE_STYLE = `
body{font:14px/1.45 system-ui,sans-serif;margin:0 auto;max-width:1240px;color:#222;padding:8px 16px 32px}
h1{font-size:20px;margin:12px 0 4px}h2{font-size:16px;margin:22px 0 6px}p{margin:4px 0}
.muted,.note{color:#666}.note{font-size:13px;border-left:3px solid #2563eb;padding:2px 8px;margin:6px 0}
#problem{color:#b91c1c;font-weight:600}#live{font-size:12px;color:#059669;margin-left:8px}
.scroll{overflow-x:auto}table{border-collapse:collapse;width:100%}
td,th{padding:4px 5px;border-bottom:1px solid #eee;text-align:left;white-space:nowrap}
td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}
#sessions tr{cursor:pointer}#sessions tr:hover{background:#f3f6fb}
#sessions tr.selected{background:#e0e9fb}#sessions tr:focus{outline:2px solid #2563eb;outline-offset:-2px}
.id{font-family:ui-monospace,monospace}.cliffs{color:#b91c1c;font-weight:600}
button{font:inherit;padding:3px 10px;margin:0 4px 4px 0;border:1px solid #bbb;border-radius:4px;background:#fff;cursor:pointer}
button[aria-pressed=true]{background:#2563eb;color:#fff;border-color:#2563eb}button:focus-visible{outline:2px solid #1e3a8a;outline-offset:2px}
#chart{width:100%;max-width:900px;height:auto;display:block;border:1px solid #eee}
.cols{display:grid;grid-template-columns:minmax(0,1fr) minmax(0,1fr);gap:16px}.cols>div{min-width:0}
pre,#dropped{white-space:pre-wrap;overflow-wrap:anywhere;background:#f7f7f7;padding:8px;max-height:420px;overflow:auto;font-size:12px;margin:0}
#dropped{list-style:none}#dropped li{margin-bottom:6px}.role{color:#666}
#events{list-style:none;padding:0;font-family:ui-monospace,monospace;font-size:12px;max-height:300px;overflow:auto}
#events li{white-space:nowrap}#events li.cliff{color:#b91c1c}
@media (max-width:700px){body{padding:4px 8px}.cols{grid-template-columns:minmax(0,1fr)}.wide{display:none}#events li{white-space:normal}
td,th{padding:4px 5px}td.id{max-width:9em;overflow:hidden;text-overflow:ellipsis}}
`;
