// WEB_CONCURRENCY's primary (server/primary.mjs) with stand-in workers: it relays a worker's broadcast to every
// other worker and nothing else, starts a new worker when one dies, and stops them all on SIGTERM.
import { spawn } from "node:child_process";
import path from "node:path";
import { expect, it } from "vitest";

interface Line {
  event: string;
  id?: number;
  message?: unknown;
}

function runPrimary(env: Record<string, string> = {}) {
  const child = spawn(process.execPath, [path.join(import.meta.dirname, "fixtures", "cluster-primary.mjs")], {
    env: { PATH: process.env.PATH, ...env } as unknown as NodeJS.ProcessEnv,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const lines: Line[] = [];
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => {
    output += chunk;
    for (const line of String(chunk).split("\n")) if (line.startsWith("{")) lines.push(JSON.parse(line));
  });
  child.stderr.on("data", (chunk: Buffer) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
  return { child, lines, output: () => output, exited };
}

it("relays a worker's broadcast to every other worker, and only that", async () => {
  const primary = runPrimary();
  try {
    await expect.poll(() => primary.lines.filter((l) => l.event === "received").length, { timeout: 5_000 }).toBe(2);
    await new Promise((resolve) => setTimeout(resolve, 300)); // nothing more arrives
    const received = primary.lines.filter((l) => l.event === "received");
    expect(received.map((l) => l.id).sort()).toEqual([2, 3]);
    for (const line of received) expect(line.message).toEqual({ latchkey: "broadcast", message: { drop: "session", token: "t" } });
  } finally {
    primary.child.kill("SIGTERM");
  }
  expect(await primary.exited).toBe(0);
  expect(primary.lines.filter((l) => l.event === "stopping").length).toBe(3);
});

it("starts another worker when one dies, and stops cleanly on SIGTERM", async () => {
  const primary = runPrimary({ CRASH_WORKER_2: "1" });
  try {
    await expect.poll(() => primary.output(), { timeout: 5_000 }).toMatch(/worker \d+ exited \(code 3\): starting another/);
    // the replacement (worker 4) is a live worker: it gets worker 1's broadcast
    await expect.poll(() => primary.lines.filter((l) => l.event === "received").map((l) => l.id).sort(), { timeout: 5_000 }).toEqual([3, 4]);
  } finally {
    primary.child.kill("SIGTERM");
  }
  expect(await primary.exited).toBe(0);
});
