/** What `/_cliff/events` sends before it goes live (its `: live` comment), read with the owner's token. */
import http from "node:http";

export function eventBacklog(url: string, token: string): Promise<any[]> {
  return new Promise((resolve, reject) => {
    const out: unknown[] = [];
    let buf = "";
    // The event stream carries session text: the owner's token, on loopback too.
    const req = http.get(url + "/_cliff/events", { headers: { authorization: `Bearer ${token}` } }, (res) => {
      res.setEncoding("utf8");
      res.on("data", (c: string) => {
        buf += c;
        for (let at = buf.indexOf("\n\n"); at >= 0; at = buf.indexOf("\n\n")) {
          const chunk = buf.slice(0, at);
          buf = buf.slice(at + 2);
          if (chunk.startsWith(": live")) return void (req.destroy(), resolve(out));
          if (chunk.startsWith("data: ")) out.push(JSON.parse(chunk.slice(6)));
        }
      });
    });
    req.on("error", reject);
  });
}
