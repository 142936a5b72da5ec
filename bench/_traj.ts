import { readFileSync } from "node:fs";
import { compact } from "../core/index.js";
import { time } from "./util.js";
const traj = (JSON.parse(readFileSync("/work/shared/corpus/minisweagent-marshmallow-1343.traj.json","utf8")).messages as any[]).map(({extra, ...m}) => m);
const r = [];
for (let k = 0; k < 5; k++) r.push(time(() => compact(traj as any, "openai-chat", { keepRecent: 3 })?.messages, 60, 3).toFixed(3));
console.log(r.join(" "));
