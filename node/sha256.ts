/** node:crypto's SHA-256 for the Node hosts: the same digests (and refs) as the core's own, natively. */
import { hash } from "node:crypto";

// The one-shot form: no Hash object per message (a history hashes hundreds of short texts).
export const nodeSha256 = (text: string): string => hash("sha256", text, "hex");
