import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import * as ts from 'typescript';

/**
 * The import graph of src/ and its cycles (strongly connected components of more than one file),
 * read with the TypeScript parser. Type-only imports count: a cycle of types still ties the
 * modules' surfaces together, which is what the module rule is about.
 * Run: `npx ts-node --transpile-only scripts/lint/import-cycles.ts [root] [--runtime] [--files]`;
 * --runtime leaves out `import type` (what Node actually loads).
 */
export interface Cycle {
  files: string[];
  modules: string[];
}

function listTs(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) listTs(path, out);
    else if (name.endsWith('.ts') && !name.endsWith('.spec.ts') && !name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

function resolveImport(from: string, spec: string, known: Set<string>): string | null {
  if (!spec.startsWith('.')) return null;
  const base = resolve(dirname(from), spec);
  for (const candidate of [`${base}.ts`, join(base, 'index.ts'), base]) if (known.has(candidate)) return candidate;
  return null;
}

const typeOnly = (node: ts.ImportDeclaration | ts.ExportDeclaration): boolean => {
  if (ts.isExportDeclaration(node)) return node.isTypeOnly || (!!node.exportClause && ts.isNamedExports(node.exportClause) && node.exportClause.elements.every((e) => e.isTypeOnly));
  const clause = node.importClause;
  if (!clause) return false;
  if (clause.isTypeOnly) return true;
  const named = clause.namedBindings;
  return !clause.name && !!named && ts.isNamedImports(named) && named.elements.length > 0 && named.elements.every((e) => e.isTypeOnly);
};

function importsOf(file: string, known: Set<string>, runtimeOnly: boolean): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false);
  const specs: string[] = [];
  source.forEachChild((node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      if (runtimeOnly && typeOnly(node)) return;
      specs.push(node.moduleSpecifier.text);
    }
  });
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0] && ts.isStringLiteral(node.arguments[0])) {
      specs.push(node.arguments[0].text);
    }
    node.forEachChild(visit);
  };
  visit(source);
  return specs.map((s) => resolveImport(file, s, known)).filter((f): f is string => f !== null);
}

const moduleOf = (file: string): string => {
  const m = /src\/modules\/([^/]+)\//.exec(file);
  return m ? m[1] : relative(process.cwd(), dirname(file));
};

/** Tarjan's strongly connected components, iteratively (the graph is a few thousand files). */
export function importCycles(root: string, runtimeOnly = false): Cycle[] {
  const files = listTs(join(root, 'src'));
  const known = new Set(files);
  const edges = new Map(files.map((f) => [f, importsOf(f, known, runtimeOnly)]));
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const cycles: Cycle[] = [];
  let counter = 0;
  for (const start of files) {
    if (index.has(start)) continue;
    const work: Array<{ node: string; next: number }> = [{ node: start, next: 0 }];
    index.set(start, counter);
    low.set(start, counter++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1];
      const out = edges.get(frame.node)!;
      if (frame.next < out.length) {
        const to = out[frame.next++];
        if (!index.has(to)) {
          index.set(to, counter);
          low.set(to, counter++);
          stack.push(to);
          onStack.add(to);
          work.push({ node: to, next: 0 });
        } else if (onStack.has(to)) {
          low.set(frame.node, Math.min(low.get(frame.node)!, index.get(to)!));
        }
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1].node;
        low.set(parent, Math.min(low.get(parent)!, low.get(frame.node)!));
      }
      if (low.get(frame.node) === index.get(frame.node)) {
        const component: string[] = [];
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          component.push(member);
        } while (member !== frame.node);
        if (component.length > 1) {
          const rel = component.map((f) => relative(root, f)).sort();
          cycles.push({ files: rel, modules: [...new Set(rel.map(moduleOf))].sort() });
        }
      }
    }
  }
  return cycles.sort((a, b) => b.files.length - a.files.length);
}

if (require.main === module) {
  const root = resolve(process.argv.slice(2).find((a) => !a.startsWith('--')) ?? process.cwd());
  const cycles = importCycles(root, process.argv.includes('--runtime'));
  console.log(`${cycles.length} import cycle(s) in ${relative(process.cwd(), join(root, 'src')) || 'src'}`);
  for (const c of cycles) console.log(`- ${c.files.length} files across [${c.modules.join(', ')}]${process.argv.includes('--files') ? `\n    ${c.files.join('\n    ')}` : ''}`);
}
