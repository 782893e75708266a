// Reading request bodies with a size cap. Content-Length can be absent (chunked uploads) or wrong, so the cap
// is enforced on the bytes as they arrive. See docs/decisions/010-body-and-form-limits.md.
import type { AppLoadContext } from "@remix-run/node";

/** Auth bodies and page forms are small (the largest, a passkey attestation, is a few KB). */
export const MAX_BODY_BYTES = 64 * 1024;

export class BodyTooLargeError extends Error {
  override name = "BodyTooLargeError";
}

/** The body stopped arriving (the client went away or reset the connection): the client's doing, not a fault. */
export class BodyNotReceivedError extends Error {
  override name = "BodyNotReceivedError";
}

/**
 * Past the cap, the rest is read and thrown away (nothing is kept) up to this much, so the client, still
 * sending, receives a clean 413 and its keep-alive connection stays usable. Beyond it, reading stops and the
 * response closes the connection (server.mjs).
 */
const DISCARD_LIMIT_BYTES = 16 * MAX_BODY_BYTES;

/**
 * The body as text, at most `maxBytes` of it. The API dispatch's requests are read through the load context's
 * `readBody` (from the socket, by the same rules; app/http/server-contract.ts); any other from its stream.
 */
export async function readCappedText(request: Request, loadContext?: AppLoadContext, maxBytes = MAX_BODY_BYTES): Promise<string> {
  const declaredLength = request.headers.get("content-length");
  // What fetch() and browsers send for a bodiless POST (sign-out): no stream needs to be made to read nothing.
  if (declaredLength === "0") return "";
  if (Number(declaredLength ?? 0) > DISCARD_LIMIT_BYTES) throw new BodyTooLargeError();
  if (loadContext?.readBody) {
    const read = await loadContext.readBody(maxBytes, DISCARD_LIMIT_BYTES).catch(notReceived);
    if ("tooLarge" in read) throw new BodyTooLargeError();
    return read.bytes.toString("utf8");
  }
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read().catch(notReceived);
    if (done) break;
    size += value.byteLength;
    if (size > DISCARD_LIMIT_BYTES) {
      await reader.cancel().catch(() => {});
      break;
    }
    if (size <= maxBytes) chunks.push(value);
  }
  if (size > maxBytes) throw new BodyTooLargeError();
  return Buffer.concat(chunks).toString("utf8");
}

function notReceived(error: unknown): never {
  throw new BodyNotReceivedError("the request body did not arrive", { cause: error });
}
