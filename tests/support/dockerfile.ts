// A small Dockerfile reader for tests (no Docker daemon here, and hadolint is on neither npm nor Debian): the
// instructions in order, continuation lines joined, comments dropped, the exec form's JSON array parsed, grouped
// into the stages FROM starts. Enough for the project's own Dockerfile, which uses no heredocs and the default
// escape character.

export interface Instruction {
  /** Upper-cased: FROM, RUN, COPY, … */
  keyword: string;
  /** Everything after the keyword, continuation lines joined. */
  args: string;
  /** The exec form's words (`CMD ["node", "x"]`), or null for the shell form. */
  exec: string[] | null;
  /** The 1-based line the instruction starts on. */
  line: number;
}

export interface Stage {
  /** The image it starts from (`node:24-bookworm-slim`). */
  image: string;
  /** Its `AS` name, if any. */
  name: string | null;
  instructions: Instruction[];
}

export function parseDockerfile(text: string): { instructions: Instruction[]; stages: Stage[] } {
  const instructions: Instruction[] = [];
  const lines = text.split(/\r?\n/);
  let pending: { text: string; line: number } | null = null;
  lines.forEach((raw, index) => {
    const trimmed = raw.trim();
    // A comment line is dropped, inside a continued instruction too; so is a blank line.
    if (trimmed === "" || trimmed.startsWith("#")) return;
    const continues = /\\\s*$/.test(raw);
    const part = continues ? raw.replace(/\\\s*$/, "") : raw;
    pending = pending ? { text: pending.text + part, line: pending.line } : { text: part, line: index + 1 };
    if (continues) return;
    instructions.push(instructionOf(pending.text.trim(), pending.line));
    pending = null;
  });
  if (pending) throw new Error(`the Dockerfile ends inside a continued instruction (line ${(pending as { line: number }).line})`);

  const stages: Stage[] = [];
  for (const instruction of instructions) {
    if (instruction.keyword === "FROM") {
      const words = instruction.args.split(/\s+/).filter((word) => !word.startsWith("--"));
      const as = words.findIndex((word) => word.toUpperCase() === "AS");
      stages.push({ image: words[0], name: as === -1 ? null : words[as + 1], instructions: [] });
    } else if (stages.length > 0) {
      stages[stages.length - 1].instructions.push(instruction);
    } else if (instruction.keyword !== "ARG") {
      throw new Error(`${instruction.keyword} before the first FROM (line ${instruction.line})`);
    }
  }
  return { instructions, stages };
}

function instructionOf(text: string, line: number): Instruction {
  const match = /^([A-Za-z]+)\s*(.*)$/s.exec(text);
  if (!match) throw new Error(`not an instruction at line ${line}: ${text}`);
  const args = match[2].trim();
  return { keyword: match[1].toUpperCase(), args, exec: execForm(args), line };
}

/** `["a", "b"]` as its words; anything else (the shell form) as null. */
export function execForm(args: string): string[] | null {
  if (!args.startsWith("[")) return null;
  try {
    const words = JSON.parse(args);
    return Array.isArray(words) && words.every((word) => typeof word === "string") ? words : null;
  } catch {
    return null;
  }
}

/** A HEALTHCHECK's options (`--interval=10s`) and its command, in exec form when it is one. */
export function healthcheckOf(instruction: Instruction): { options: Record<string, string>; command: string[] | null; shell: string | null } {
  const options: Record<string, string> = {};
  let rest = instruction.args;
  for (let option = /^--([a-z-]+)=(\S+)\s+/.exec(rest); option; option = /^--([a-z-]+)=(\S+)\s+/.exec(rest)) {
    options[option[1]] = option[2];
    rest = rest.slice(option[0].length);
  }
  const cmd = /^CMD\s+(.*)$/s.exec(rest);
  if (!cmd) return { options, command: null, shell: null };
  const command = execForm(cmd[1].trim());
  return { options, command, shell: command ? null : cmd[1].trim() };
}
