/** What a platform may do to our summary before it hands it back as messages[0] (reliability round three, item 1). */

export interface Wrapping {
  name: string;
  wrap(summary: string): string;
}

export const WRAPPINGS: Wrapping[] = [
  { name: "leading newline and spaces", wrap: (s) => "\n   " + s },
  { name: "a label", wrap: (s) => "Summary:\n" + s },
  { name: "a label on the header's line", wrap: (s) => "Previous summary: " + s },
  { name: "<summary> tags", wrap: (s) => `<summary>\n${s}\n</summary>` },
  { name: "a JSON list of text blocks", wrap: (s) => JSON.stringify([{ type: "text", text: s }]) },
  { name: "a markdown quote", wrap: (s) => s.split("\n").map((l) => (l === "" ? ">" : "> " + l)).join("\n") },
  { name: "CRLF line ends", wrap: (s) => s.replace(/\n/g, "\r\n") },
  { name: "CR line ends", wrap: (s) => s.replace(/\n/g, "\r") },
  { name: "a quote of CRLF text in a JSON block", wrap: (s) => JSON.stringify([{ type: "text", text: s.split("\n").map((l) => "> " + l).join("\r\n") }]) },
];
