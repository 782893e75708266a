// The optional online range lookup (issue 39 §2; docs/decisions/056-breached-passwords.md): k-anonymity in the
// form Have I Been Pwned's Pwned Passwords API answers. GET the configured URL + the first 5 hex characters of
// the password's SHA-1 (upper case), with `Add-Padding: true`; the answer is one `SUFFIX:COUNT` line per hash in
// that range, padding lines carrying COUNT 0. Only the 5 characters leave the machine.
//
// Any failure — the 3 s timeout, a network error, a status other than 200, an answer too large or not in that
// form — is a `failed` outcome, never an exception: the caller logs it and lets the offline list decide.
import { createHash } from "node:crypto";

/** Better Auth's plugin and HIBP's own guidance: an answer later than this is not waited for. */
export const RANGE_TIMEOUT_MS = 3_000;
/** A padded HIBP answer is ~30–40 KB (800–1,000 lines); anything past this is not such an answer. */
const MAX_ANSWER_BYTES = 1024 * 1024;
const LINE = /^([0-9A-F]{35}):(\d{1,12})$/i;

export type RangeOutcome = { result: "breached" | "not-found" } | { result: "failed"; reason: string };

/** The first 5 characters (sent) and the other 35 (compared here) of the password's SHA-1, upper case. */
export function sha1Range(password: string): { prefix: string; suffix: string } {
  const digest = createHash("sha1").update(password, "utf8").digest("hex").toUpperCase();
  return { prefix: digest.slice(0, 5), suffix: digest.slice(5) };
}

/** Reads at most MAX_ANSWER_BYTES of the body (the fetch's signal still bounds the time). */
async function readCapped(response: Response): Promise<string | null> {
  if (!response.body) return "";
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_ANSWER_BYTES) {
      await reader.cancel().catch(() => {});
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/**
 * Whether the range service lists the password (as typed). `baseUrl` ends where the 5 characters go
 * (e.g. `https://api.pwnedpasswords.com/range/`).
 */
export async function lookUpRange(baseUrl: string, password: string, timeoutMs = RANGE_TIMEOUT_MS): Promise<RangeOutcome> {
  const { prefix, suffix } = sha1Range(password);
  try {
    const response = await fetch(`${baseUrl}${prefix}`, {
      headers: { "Add-Padding": "true", Accept: "text/plain", "User-Agent": "Latchkey password check" },
      redirect: "error",
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (response.status !== 200) {
      await response.body?.cancel().catch(() => {});
      return { result: "failed", reason: `status ${response.status}` };
    }
    const text = await readCapped(response);
    if (text === null) return { result: "failed", reason: "answer too large" };
    let breached = false;
    for (const raw of text.split("\n")) {
      const line = raw.trim();
      if (line === "") continue;
      const match = LINE.exec(line);
      if (!match) return { result: "failed", reason: "answer not in SUFFIX:COUNT lines" };
      if (match[1].toUpperCase() === suffix && Number(match[2]) > 0) breached = true;
    }
    return { result: breached ? "breached" : "not-found" };
  } catch (error) {
    const failure = error as Error & { cause?: { code?: string } };
    if (failure?.name === "TimeoutError" || failure?.name === "AbortError") return { result: "failed", reason: `no answer within ${timeoutMs} ms` };
    // The cause's code (ECONNREFUSED, ENOTFOUND…) rather than a message that might quote the URL and its prefix.
    return { result: "failed", reason: `request failed (${failure?.cause?.code ?? failure?.name ?? "unknown"})` };
  }
}
