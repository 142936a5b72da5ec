// The built proxy under whatever Node runs this file: the request bodies on standard input go
// through it to an upstream here, and what the upstream received comes back on standard output.
import http from "node:http";

const { startProxy } = await import(new URL("../../dist/proxy.mjs", import.meta.url).href);
let input = "";
for await (const chunk of process.stdin) input += chunk;
const { config, cases } = JSON.parse(input);
const received = [];
const upstream = http.createServer((req, res) => {
  const chunks = [];
  req.on("data", (c) => chunks.push(c));
  req.on("end", () => {
    received.push(Buffer.concat(chunks).toString("utf8"));
    res.writeHead(200, { "content-type": "application/json" }).end('{"ok":true}');
  });
});
await new Promise((resolve) => upstream.listen(0, "127.0.0.1", resolve));
const url = `http://127.0.0.1:${upstream.address().port}`;
const proxy = await startProxy({ config, port: 0, upstreams: { anthropic: url, openai: url, chatgpt: url } });
try {
  for (const c of cases) {
    const r = await fetch(proxy.url + c.path, { method: "POST", headers: { "content-type": "application/json", "x-api-key": "k" }, body: c.text });
    await r.text();
  }
} finally {
  await proxy.close();
  upstream.close();
}
process.stdout.write(JSON.stringify({ version: process.version, received }));
