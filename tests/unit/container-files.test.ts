// The container files, read without Docker (issue 40, docs/decisions/064-health-probes-and-containers.md): the
// Dockerfile's stages and rules, .dockerignore, and compose.yaml against the Compose Specification's JSON schema
// (vendored in tests/fixtures/compose-spec/) and against what the app knows and the docs name.
import { readFileSync } from "node:fs";
import path from "node:path";
import { Ajv } from "ajv";
import { parseDocument } from "yaml";
import { describe, expect, it } from "vitest";
import { healthcheckOf, parseDockerfile, type Instruction } from "../support/dockerfile";

const root = path.join(import.meta.dirname, "..", "..");
const read = (file: string) => readFileSync(path.join(root, file), "utf8");

const dockerfile = parseDockerfile(read("Dockerfile"));
const [build, runtime] = [dockerfile.stages[0], dockerfile.stages.at(-1)!];
const readme = read("README.md");

/** The commands a stage's RUN steps run, each `a && b` split in two. */
const commandsOf = (instructions: Instruction[]) =>
  instructions.filter((step) => step.keyword === "RUN").flatMap((step) => step.args.split("&&").map((command) => command.trim()));

/** The node major a `node:<major>-bookworm…` image pins, or null. */
const nodeMajorOf = (image: string) => /^node:(\d+)-bookworm(-slim)?$/.exec(image)?.[1] ?? null;

describe("Dockerfile", () => {
  it("has a build stage and a runtime stage on node's pinned major (bookworm, slim at runtime)", () => {
    expect(dockerfile.stages.length).toBeGreaterThanOrEqual(2);
    expect(build.name).toBe("build");
    expect(nodeMajorOf(build.image)).not.toBeNull();
    expect(runtime.image).toMatch(/^node:\d+-bookworm-slim$/);
    expect(nodeMajorOf(runtime.image)).toBe(nodeMajorOf(build.image));
    for (const stage of dockerfile.stages) expect(stage.image).not.toMatch(/:latest$|^[^:]+$/);
  });

  it("builds with npm ci, npm run build and npm prune --omit=dev, in that order", () => {
    const commands = commandsOf(build.instructions);
    const at = (command: string) => commands.indexOf(command);
    expect(at("npm ci")).toBeGreaterThanOrEqual(0);
    expect(at("npm run build")).toBeGreaterThan(at("npm ci"));
    expect(at("npm prune --omit=dev")).toBeGreaterThan(at("npm run build"));
  });

  it("copies only from the build stage into the runtime stage", () => {
    const copies = runtime.instructions.filter((step) => step.keyword === "COPY" || step.keyword === "ADD");
    expect(copies.length).toBeGreaterThan(0);
    for (const copy of copies) expect(copy.args, `line ${copy.line}`).toMatch(/^--from=build\s/);
    expect(runtime.instructions.some((step) => step.keyword === "RUN" && /\bnpm (ci|install)\b/.test(step.args))).toBe(false);
  });

  it("runs in production as the node user, with SQLite's data in a volume that user owns", () => {
    const env = runtime.instructions.filter((step) => step.keyword === "ENV").map((step) => step.args);
    expect(env).toContain("NODE_ENV=production");
    const users = runtime.instructions.filter((step) => step.keyword === "USER");
    expect(users.at(-1)?.args).toBe("node");
    const volume = runtime.instructions.find((step) => step.keyword === "VOLUME")!;
    expect(volume.exec ?? volume.args.split(/\s+/)).toContain("/app/data");
    expect(commandsOf(runtime.instructions)).toContain("chown node:node /app/data");
    const workdir = runtime.instructions.filter((step) => step.keyword === "WORKDIR").at(-1);
    expect(workdir?.args).toBe("/app");
  });

  it("exposes the public and the metrics port", () => {
    const exposed = runtime.instructions.filter((step) => step.keyword === "EXPOSE").flatMap((step) => step.args.split(/\s+/));
    expect(exposed.sort()).toEqual(["3000", "9464"]);
  });

  it("checks its health with node's fetch on /health/live (slim images have no curl)", () => {
    const check = runtime.instructions.find((step) => step.keyword === "HEALTHCHECK");
    expect(check).toBeDefined();
    const { command, options } = healthcheckOf(check!);
    expect(command?.slice(0, 2)).toEqual(["node", "-e"]);
    expect(command?.[2]).toMatch(/fetch\(/);
    expect(command?.[2]).toContain("/health/live");
    expect(check!.args).not.toMatch(/\b(curl|wget)\b/);
    expect(Object.keys(options).sort()).toEqual(["interval", "retries", "start-period", "timeout"]);
  });

  it("starts with the exec form of the start script, so SIGTERM reaches the server", () => {
    const cmd = runtime.instructions.filter((step) => step.keyword === "CMD").at(-1);
    expect(cmd?.exec).toEqual(["node", "scripts/start.mjs", "--no-build"]);
    expect(runtime.instructions.some((step) => step.keyword === "ENTRYPOINT")).toBe(false);
  });

  it("holds no secret: no ENV or ARG names AUTH_SECRET, METRICS_TOKEN or any other secret", () => {
    for (const step of dockerfile.instructions.filter((s) => s.keyword === "ENV" || s.keyword === "ARG")) {
      expect(step.args, `line ${step.line}`).not.toMatch(/AUTH_SECRET|METRICS_TOKEN|SECRET|TOKEN|PASSWORD|_KEY\b/i);
    }
  });

  it("runs the README's steps, and the README names every npm and node command it runs", () => {
    const runs = [...commandsOf(dockerfile.instructions), runtime.instructions.filter((s) => s.keyword === "CMD").at(-1)!.exec!.join(" ")];
    const own = runs.filter((command) => /^(npm|node) /.test(command));
    for (const command of own) expect(readme, command).toContain(`\`${command}\``);
    // The README's deployment steps (its "PostgreSQL and deployment" section), each in the image.
    expect(readme).toContain("`npm ci && npm run build`");
    expect(readme).toContain("`node scripts/start.mjs --no-build`");
    for (const step of ["npm ci", "npm run build", "node scripts/start.mjs --no-build"]) expect(own).toContain(step);
  });

  it("is on the Node major the README says the image uses and package.json's engines accept", () => {
    const major = nodeMajorOf(runtime.image)!;
    const containers = sectionOf(readme, "Containers");
    expect(containers).toContain(`node:${major}-bookworm-slim`);
    const engines = JSON.parse(read("package.json")).engines.node as string;
    expect(engines).toMatch(new RegExp(`(^|\\|\\|\\s*|\\s)(\\^|>=)${major}\\b`));
  });
});

describe(".dockerignore", () => {
  const patterns = read(".dockerignore")
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith("#"));
  const excludes = (name: string) => patterns.includes(name) || patterns.includes(`**/${name}`);

  it("keeps the repository, the dependencies, the development secret and SQLite file, and .env files out", () => {
    for (const name of [".git", "node_modules", "data", ".env*"]) expect(excludes(name), name).toBe(true);
    expect(patterns.some((pattern) => pattern.startsWith("!"))).toBe(false);
  });
});

describe("compose.yaml", () => {
  const document = parseDocument(read("compose.yaml"), { uniqueKeys: true });
  const compose = document.toJS() as ComposeFile;
  const app = compose.services.app;

  it("parses cleanly and is valid against the Compose Specification's JSON schema", () => {
    expect(document.errors).toEqual([]);
    expect(document.warnings).toEqual([]);
    const validate = composeValidator();
    expect(validate(compose), JSON.stringify(validate.errors, null, 2)).toBe(true);
    // The schema is strict enough to notice a mistake (so the check above means something).
    const broken = structuredClone(compose) as unknown as Record<string, Record<string, Record<string, unknown>>>;
    broken.services.app.depends_on = { postgres: { condition: "when_it_feels_like_it" } };
    expect(validate(broken)).toBe(false);
  });

  it("runs app from this directory's Dockerfile against postgres, redis and mailpit, with the secret from the environment", () => {
    expect(app.build).toBe(".");
    const env = app.environment;
    expect(env.DATABASE_URL).toMatch(/^postgres:\/\/[^@]+@postgres:5432\/\w+$/);
    expect(env.REDIS_URL).toBe("redis://redis:6379");
    expect(env.SMTP_URL).toBe("smtp://mailpit:1025");
    expect(env.BASE_URL).toMatch(/^https?:\/\//);
    expect(env.METRICS_PORT).toBe("9464");
    expect(env.AUTH_SECRET).toMatch(/^\$\{AUTH_SECRET:\?[^}]+\}$/);
    for (const [name, value] of Object.entries(env)) {
      if (/SECRET|TOKEN|PASSWORD/.test(name)) expect(value, name).toMatch(/^\$\{[A-Z_]+:\?[^}]+\}$/);
    }
  });

  it("waits for a healthy postgres and redis", () => {
    expect(app.depends_on).toEqual({ postgres: { condition: "service_healthy" }, redis: { condition: "service_healthy" } });
  });

  it("publishes the public port only (metrics stay inside)", () => {
    const published = (app.ports ?? []).map(String);
    expect(published).toEqual(["3000:3000"]);
  });

  it("has postgres 17 with pg_isready and a named volume, redis 7 with redis-cli ping, and mailpit's UI on 8025", () => {
    const { postgres, redis, mailpit } = compose.services;
    expect(postgres.image).toBe("postgres:17");
    expect(postgres.healthcheck?.test.join(" ")).toMatch(/pg_isready/);
    const [volume] = (postgres.volumes ?? [])[0].split(":");
    expect(Object.keys(compose.volumes ?? {})).toContain(volume);
    expect(redis.image).toBe("redis:7");
    expect(redis.healthcheck?.test).toEqual(["CMD", "redis-cli", "ping"]);
    expect(mailpit.image).toMatch(/^axllent\/mailpit(:|$)/);
    expect(mailpit.ports).toEqual(["8025:8025"]);
  });

  it("sets only variables app/env.server.ts knows, each named in docs/configuration.md", () => {
    const known = knownVariables();
    const configuration = read("docs/configuration.md");
    for (const name of Object.keys(app.environment)) {
      expect(known, `${name}: not a variable app/env.server.ts knows`).toContain(name);
      expect(configuration, `${name}: not in docs/configuration.md`).toContain(`\`${name}\``);
    }
  });
});

interface ComposeService {
  build?: string;
  image?: string;
  environment: Record<string, string>;
  depends_on?: Record<string, { condition: string }>;
  ports?: string[];
  healthcheck?: { test: string[] };
  volumes?: string[];
}
interface ComposeFile {
  services: Record<string, ComposeService>;
  volumes?: Record<string, unknown>;
}

/**
 * Ajv on the vendored schema. It names draft-07 by its https address, which Ajv knows by the http one: the same
 * meta-schema is registered under that name too, so the schema itself is still checked. Not strict: the schema
 * uses annotations (`deprecated`) Ajv does not know.
 */
function composeValidator() {
  const schema = JSON.parse(read("tests/fixtures/compose-spec/compose-spec.json"));
  const draft07 = JSON.parse(read("node_modules/ajv/dist/refs/json-schema-draft-07.json"));
  const ajv = new Ajv({ allErrors: true, strict: false });
  ajv.addMetaSchema({ ...draft07, $id: schema.$schema });
  return ajv.compile(schema);
}

/** The variables app/env.server.ts's schema declares (its object's keys). */
function knownVariables(): string[] {
  const source = read("app/env.server.ts");
  const body = source.slice(source.indexOf("const schema = z"), source.indexOf("export type Env"));
  return [...body.matchAll(/^ {4}([A-Z][A-Z0-9_]*):/gm)].map((match) => match[1]);
}

/** A README section's text, from its `## title` to the next `## `. */
function sectionOf(markdown: string, title: string): string {
  const start = markdown.indexOf(`\n## ${title}\n`);
  if (start === -1) throw new Error(`the README has no "## ${title}" section`);
  const end = markdown.indexOf("\n## ", start + 1);
  return markdown.slice(start, end === -1 ? undefined : end);
}
