/**
 * Gemini CLI's variables for where it sends requests, each with the proxy's upstream it names: an
 * API key's Gemini API (`GOOGLE_GEMINI_BASE_URL`, read by the Google Gen AI SDK), Vertex AI's
 * (`GOOGLE_VERTEX_BASE_URL`), and Code Assist's when signed in with Google (`CODE_ASSIST_ENDPOINT`,
 * read by Gemini CLI itself). `run -- gemini` and `enable` set all three, so whichever way the user
 * signed in goes through the proxy.
 */
export const GEMINI_BASE_URLS = [
  ["GOOGLE_GEMINI_BASE_URL", "gemini"],
  ["GOOGLE_VERTEX_BASE_URL", "vertex"],
  ["CODE_ASSIST_ENDPOINT", "codeassist"],
] as const;

/** The variables that send Gemini CLI to a proxy at `url`. */
export function geminiEnv(url: string): Record<string, string> {
  return Object.fromEntries(GEMINI_BASE_URLS.map(([variable]) => [variable, url]));
}
