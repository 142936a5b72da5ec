/** The recall face: what names a dropped text (ref.ts) and, beside it, how a recall is answered. */
export { refOf, REF_LENGTH, REF_PATTERN } from "./ref.js";
