// WEB_CONCURRENCY's primary (server/primary.mjs) with stand-in workers: it starts them, starts a new worker
// when one dies, and stops them all on SIGTERM.
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

it("starts its workers and stops them all on SIGTERM", async () => {
  const primary = runPrimary();
  try {
    await expect.poll(() => primary.lines.filter((l) => l.event === "started").map((l) => l.id).sort(), { timeout: 5_000 }).toEqual([1, 2, 3]);
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
    // the replacement is worker 4, and it listens
    await expect.poll(() => primary.lines.filter((l) => l.event === "started").map((l) => l.id), { timeout: 5_000 }).toContain(4);
  } finally {
    primary.child.kill("SIGTERM");
  }
  expect(await primary.exited).toBe(0);
  expect(primary.lines.filter((l) => l.event === "stopping").map((l) => l.id).sort()).toEqual([1, 3, 4]);
});
