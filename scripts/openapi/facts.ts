/**
 * What the OpenAPI document learns from the source rather than from the schemas (ARCHITECTURE.md "The API
 * document"), written to apps/server/src/platform/http/openapi-facts.json by `npm run openapi:update`:
 * - errors: per operationId, every `AppError` (status and stable code) its handler can reach: the handler given to
 *   `route()` in a module's routes.ts, followed through every function, method and class of the repository it
 *   calls or passes on (TypeScript's checker resolves each name; interface methods go to the classes implementing
 *   them). Guard, validation and rate-limit answers are added at run time from the route's own config.
 * - descriptions: the doc comments (`/** … *\/`) above the properties and schemas of packages/contracts, so a
 *   property documented for the developers is documented in the API document too.
 */
import ts from 'typescript';
import { readdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const FACTS_FILE = join(root, 'apps/server/src/platform/http/openapi-facts.json');

export interface OpenApiFacts {
  errors: Record<string, Array<[number, string]>>;
  descriptions: Record<string, { description?: string; properties?: Record<string, string> }>;
}

const walk = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? walk(join(dir, e.name)) : e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [join(dir, e.name)] : [],
  );

const ours = (file: string) => !file.includes('/node_modules/') && !file.endsWith('.d.ts') && file.startsWith(root);

export function collectFacts(): OpenApiFacts {
  const files = [...walk(join(root, 'apps/server/src')), ...walk(join(root, 'packages/contracts/src'))];
  const base = ts.readConfigFile(join(root, 'apps/server/tsconfig.json'), ts.sys.readFile).config;
  const options = ts.parseJsonConfigFileContent(base, ts.sys, join(root, 'apps/server')).options;
  const program = ts.createProgram(files, { ...options, noEmit: true });
  const checker = program.getTypeChecker();

  // interface name → the classes that implement it (Limiter → RateLimiter, RedisRateLimiter)
  const implementers = new Map<string, ts.ClassLikeDeclaration[]>();
  for (const sf of program.getSourceFiles()) {
    if (!ours(sf.fileName)) continue;
    const visit = (n: ts.Node) => {
      if (ts.isClassDeclaration(n))
        for (const clause of n.heritageClauses ?? [])
          for (const t of clause.types) {
            const name = t.expression.getText(sf);
            implementers.set(name, [...(implementers.get(name) ?? []), n]);
          }
      ts.forEachChild(n, visit);
    };
    visit(sf);
  }

  const resolveSymbol = (node: ts.Node): ts.Symbol | undefined => {
    let s = checker.getSymbolAtLocation(node);
    if (s && s.flags & ts.SymbolFlags.Alias) s = checker.getAliasedSymbol(s);
    return s;
  };
  const literal = (e: ts.Expression | undefined): string | number | undefined => {
    if (!e) return undefined;
    if (ts.isStringLiteralLike(e)) return e.text;
    if (ts.isNumericLiteral(e)) return Number(e.text);
    const t = checker.getTypeAtLocation(e);
    if (t.isStringLiteral() || t.isNumberLiteral()) return t.value;
    if (t.isUnion() && t.types.every((x) => x.isStringLiteral() || x.isNumberLiteral())) return undefined;
    return undefined;
  };
  const isAppError = (e: ts.Expression) => resolveSymbol(e)?.getName() === 'AppError';

  /** The bodies a name leads to: functions, methods, arrow functions in variables, classes, implementing methods. */
  function targets(symbol: ts.Symbol): ts.Node[] {
    const out: ts.Node[] = [];
    for (const d of symbol.declarations ?? []) {
      if (!ours(d.getSourceFile().fileName)) continue;
      if (ts.isFunctionDeclaration(d) || ts.isMethodDeclaration(d) || ts.isClassDeclaration(d) || ts.isGetAccessor(d)) out.push(d);
      else if (ts.isVariableDeclaration(d) && d.initializer && (ts.isArrowFunction(d.initializer) || ts.isFunctionExpression(d.initializer)))
        out.push(d.initializer);
      else if (ts.isPropertyAssignment(d) && (ts.isArrowFunction(d.initializer) || ts.isFunctionExpression(d.initializer))) out.push(d.initializer);
      else if (ts.isMethodSignature(d) && ts.isInterfaceDeclaration(d.parent)) {
        const name = d.name.getText();
        for (const c of implementers.get(d.parent.name.text) ?? [])
          for (const m of c.members) if (ts.isMethodDeclaration(m) && m.name.getText() === name) out.push(m);
      }
    }
    return out;
  }

  const memo = new Map<ts.Node, Set<string>>();
  function codesOf(node: ts.Node): Set<string> {
    const known = memo.get(node);
    if (known) return known;
    const out = new Set<string>();
    memo.set(node, out); // a cycle sees what is known so far
    const visit = (n: ts.Node) => {
      if (ts.isNewExpression(n) && isAppError(n.expression)) {
        const status = literal(n.arguments?.[0]);
        const code = literal(n.arguments?.[1]);
        if (typeof status === 'number' && typeof code === 'string') out.add(`${status} ${code}`);
      } else if (ts.isIdentifier(n) && !(ts.isPropertyAccessExpression(n.parent) && n.parent.expression !== n && false)) {
        const s = resolveSymbol(n);
        if (s) for (const t of targets(s)) if (t !== node) for (const c of codesOf(t)) out.add(c);
      }
      ts.forEachChild(n, visit);
    };
    ts.forEachChild(node, visit);
    return out;
  }

  const errors: OpenApiFacts['errors'] = {};
  for (const sf of program.getSourceFiles()) {
    if (!ours(sf.fileName) || !sf.fileName.includes('/apps/server/src/')) continue;
    const visit = (n: ts.Node) => {
      if (ts.isCallExpression(n) && ts.isIdentifier(n.expression) && n.expression.text === 'route' && n.arguments.length === 4) {
        const opType = checker.getTypeAtLocation(n.arguments[1]).getProperty('operationId');
        const opId = opType ? checker.getTypeOfSymbolAtLocation(opType, n) : undefined;
        if (opId?.isStringLiteral()) {
          const codes = [...codesOf(n.arguments[3])].map((c) => {
            const [status, code] = c.split(' ');
            return [Number(status), code] as [number, string];
          });
          errors[opId.value] = [...(errors[opId.value] ?? []), ...codes].sort((a, b) => a[0] - b[0] || a[1].localeCompare(b[1]));
        }
      }
      ts.forEachChild(n, visit);
    };
    visit(sf);
  }

  // Doc comments of packages/contracts: `export const X = Type.Object({ /** … */ p: … }, { $id: 'X' })`.
  const descriptions: OpenApiFacts['descriptions'] = {};
  const doc = (n: ts.Node): string | undefined => {
    const text = ts
      .getJSDocCommentsAndTags(n)
      .filter(ts.isJSDoc)
      .map((d) => ts.getTextOfJSDocComment(d.comment) ?? '')
      .join(' ')
      .replace(/\s+/g, ' ')
      .trim();
    return text || undefined;
  };
  const idOf = (call: ts.CallExpression): string | undefined => {
    for (const a of call.arguments)
      if (ts.isObjectLiteralExpression(a))
        for (const p of a.properties)
          if (ts.isPropertyAssignment(p) && p.name.getText() === '$id' && ts.isStringLiteralLike(p.initializer)) return p.initializer.text;
    return undefined;
  };
  for (const sf of program.getSourceFiles()) {
    if (!sf.fileName.includes('/packages/contracts/src/')) continue;
    for (const stmt of sf.statements) {
      if (!ts.isVariableStatement(stmt)) continue;
      for (const d of stmt.declarationList.declarations) {
        if (!d.initializer || !ts.isCallExpression(d.initializer)) continue;
        const id = idOf(d.initializer);
        if (!id) continue;
        const entry: { description?: string; properties?: Record<string, string> } = {};
        const own = doc(stmt);
        if (own) entry.description = own;
        const first = d.initializer.arguments[0];
        if (first && ts.isObjectLiteralExpression(first))
          for (const p of first.properties) {
            const text = doc(p);
            if (text && p.name) (entry.properties ??= {})[p.name.getText().replace(/^['"]|['"]$/g, '')] = text;
          }
        if (entry.description || entry.properties) descriptions[id] = entry;
      }
    }
  }
  return { errors: Object.fromEntries(Object.entries(errors).sort(([a], [b]) => a.localeCompare(b))), descriptions };
}

export function writeFacts(): OpenApiFacts {
  const facts = collectFacts();
  writeFileSync(FACTS_FILE, `${JSON.stringify(facts, null, 2)}\n`);
  return facts;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const t0 = Date.now();
  const facts = writeFacts();
  console.log(`${Object.keys(facts.errors).length} operations, ${Object.keys(facts.descriptions).length} described schemas (${Date.now() - t0} ms)`);
}
