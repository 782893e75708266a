// The import graph of a source folder, read the way the bundler reads it: each module's static
// `import … from` and `export … from` declarations, resolved to files (`~/` is the folder itself; relative paths;
// `.ts`, `.tsx`, `.js`, `.mjs` and `index` files). Packages are not followed. `import type`, `export type` and
// imports whose every name is `type` are kept apart (`typeOnly`): the bundler drops them, so they make no
// runtime cycle, but `madge --circular` counts them and so do our rules (docs/decisions/033-layers-and-boundaries.md).
// Dynamic `import()` is not an edge: it loads later, on purpose (ADR 026), and cannot make a cycle at load time.
// The TypeScript parser is already installed for `tsc`; it is used only to find the declarations reliably.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import ts from "typescript";

export interface Edge {
  /** Both ends relative to the root, with forward slashes (`auth/session/sessions.server.ts`). */
  from: string;
  to: string;
  typeOnly: boolean;
}

const SOURCE = /\.(ts|tsx|js|mjs)$/;
const EXTENSIONS = ["", ".ts", ".tsx", ".js", ".mjs", "/index.ts", "/index.tsx", "/index.js"];

function sourceFiles(root: string, folder = root): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) return sourceFiles(root, full);
    return SOURCE.test(entry.name) && !entry.name.endsWith(".d.ts") ? [full] : [];
  });
}

function resolve(root: string, importer: string, specifier: string): string | null {
  let base: string;
  if (specifier.startsWith("~/")) base = path.join(root, specifier.slice(2));
  else if (specifier.startsWith(".")) base = path.resolve(path.dirname(importer), specifier);
  else return null; // a package
  for (const extension of EXTENSIONS) {
    const candidate = base + extension;
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  throw new Error(`${path.relative(root, importer)}: cannot resolve "${specifier}"`);
}

/** The static imports and re-exports of one module, with whether each is erased at build time. */
function declarationsOf(file: string): { specifier: string; typeOnly: boolean }[] {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, false, file.endsWith("x") ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const found: { specifier: string; typeOnly: boolean }[] = [];
  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement) && ts.isStringLiteral(statement.moduleSpecifier)) {
      const clause = statement.importClause;
      const bindings = clause?.namedBindings;
      // `import "x"` and `import x from "x"` load x; `import { type A } from "x"` alone does not.
      const everyNameIsType =
        !!clause && !clause.name && !!bindings && ts.isNamedImports(bindings) && bindings.elements.length > 0 && bindings.elements.every((element) => element.isTypeOnly);
      found.push({ specifier: statement.moduleSpecifier.text, typeOnly: !!clause?.isTypeOnly || everyNameIsType });
    } else if (ts.isExportDeclaration(statement) && statement.moduleSpecifier && ts.isStringLiteral(statement.moduleSpecifier)) {
      const clause = statement.exportClause;
      const everyNameIsType = !!clause && ts.isNamedExports(clause) && clause.elements.length > 0 && clause.elements.every((element) => element.isTypeOnly);
      found.push({ specifier: statement.moduleSpecifier.text, typeOnly: statement.isTypeOnly || everyNameIsType });
    }
  }
  return found;
}

/** Every edge between modules under `root`; an edge that is both a value and a type import counts as a value. */
export function importGraph(root: string): Edge[] {
  const relative = (file: string) => path.relative(root, file).split(path.sep).join("/");
  const edges = new Map<string, Edge>();
  for (const file of sourceFiles(root)) {
    for (const { specifier, typeOnly } of declarationsOf(file)) {
      const target = resolve(root, file, specifier);
      if (!target) continue;
      const edge = { from: relative(file), to: relative(target), typeOnly };
      const key = `${edge.from}\n${edge.to}`;
      const known = edges.get(key);
      if (!known || (known.typeOnly && !typeOnly)) edges.set(key, edge);
    }
  }
  return [...edges.values()].sort((a, b) => a.from.localeCompare(b.from) || a.to.localeCompare(b.to));
}

/**
 * The import cycles, each as the list of its modules from one back to itself (`a → b → a`). Tarjan's strongly
 * connected components; for each component with more than one module (or a module importing itself), one
 * shortest cycle through its first module is named, which is enough to say where to look.
 */
export function cyclesIn(edges: Edge[]): string[][] {
  const next = new Map<string, string[]>();
  for (const { from, to } of edges) next.set(from, [...(next.get(from) ?? []), to]);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  let counter = 0;
  const visit = (node: string) => {
    index.set(node, counter);
    low.set(node, counter++);
    stack.push(node);
    onStack.add(node);
    for (const target of next.get(node) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(node, Math.min(low.get(node)!, low.get(target)!));
      } else if (onStack.has(target)) low.set(node, Math.min(low.get(node)!, index.get(target)!));
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      components.push(component);
    }
  };
  for (const node of [...next.keys()].sort()) if (!index.has(node)) visit(node);

  return components
    .filter((component) => component.length > 1 || (next.get(component[0]) ?? []).includes(component[0]))
    .map((component) => shortestCycle([...component].sort()[0], new Set(component), next))
    .sort((a, b) => a[0].localeCompare(b[0]));
}

/** Breadth-first from `start` back to itself, staying inside its component. */
function shortestCycle(start: string, component: Set<string>, next: Map<string, string[]>): string[] {
  const cameFrom = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift()!;
    for (const target of next.get(node) ?? []) {
      if (!component.has(target)) continue;
      if (target === start) {
        const path = [start];
        for (let at = node; at !== start; at = cameFrom.get(at)!) path.splice(1, 0, at);
        return [...path, start];
      }
      if (!cameFrom.has(target)) {
        cameFrom.set(target, node);
        queue.push(target);
      }
    }
  }
  return [start, start];
}
