/**
 * What docs-map.ts lists, read from the code itself: the queue registry's doc comments, the worker's handler
 * registry, the tables the migrations leave, the web's feature folders and pages, and who imports each wire schema
 * file. The worker's and the web's modules are read as source text (TypeScript's parser), not imported: infra may
 * load an app only through its public entry points, and reading them loads nothing.
 */
import ts from 'typescript';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const parse = (file: string) => ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);

function walk(node: ts.Node, visit: (n: ts.Node) => void): void {
  visit(node);
  node.forEachChild((c) => walk(c, visit));
}

const propName = (p: ts.ObjectLiteralElementLike) => (p.name && (ts.isIdentifier(p.name) || ts.isStringLiteral(p.name)) ? p.name.text : '');

/** The object literal a top-level `const NAME = { … }` (with `as const` / `satisfies` around it) holds. */
function objectOf(file: string, name: string): ts.ObjectLiteralExpression {
  let found: ts.ObjectLiteralExpression | undefined;
  walk(parse(file), (n) => {
    if (!found && ts.isVariableDeclaration(n) && ts.isIdentifier(n.name) && n.name.text === name && n.initializer) {
      let init: ts.Expression = n.initializer;
      while (ts.isAsExpression(init) || ts.isSatisfiesExpression(init) || ts.isParenthesizedExpression(init)) init = init.expression;
      if (ts.isObjectLiteralExpression(init)) found = init;
    }
  });
  if (!found) throw new Error(`${file} has no object literal '${name}'`);
  return found;
}

/** The `/** … *\/` comment of each entry of the registry's `QUEUES`, as one line of text. */
export function queueDocs(file = 'shared/src/queues.ts'): Record<string, string> {
  const source = readFileSync(file, 'utf8');
  const docs: Record<string, string> = {};
  for (const p of objectOf(file, 'QUEUES').properties) {
    const ranges = ts.getLeadingCommentRanges(source, p.getFullStart()) ?? [];
    const doc = ranges.map((r) => source.slice(r.pos, r.end)).filter((c) => c.startsWith('/**'));
    docs[propName(p)] = doc
      .join(' ')
      .replace(/^\/\*\*|\*\/$/g, '')
      .replace(/\s*\n\s*\*\s?/g, ' ')
      .trim();
  }
  return docs;
}

/** Per queue, the handler's file (from the factory table of workers/src/handlers.ts) and the deps it takes (JOB_DEPS). */
export function workerJobs(dir = 'workers/src'): Record<string, { handler: string; deps: string[]; imports: string[] }> {
  const handlersFile = join(dir, 'handlers.ts');
  const importedFrom = new Map<string, string>();
  for (const st of parse(handlersFile).statements) {
    if (!ts.isImportDeclaration(st) || !ts.isStringLiteral(st.moduleSpecifier)) continue;
    const bindings = st.importClause?.namedBindings;
    if (bindings && ts.isNamedImports(bindings)) for (const el of bindings.elements) importedFrom.set(el.name.text, st.moduleSpecifier.text);
  }
  const deps = objectOf(join(dir, 'deps.ts'), 'JOB_DEPS');
  const depsOf = (queue: string) => {
    const entry = deps.properties.find((p) => propName(p) === queue);
    const list: readonly ts.Expression[] = entry && ts.isPropertyAssignment(entry) && ts.isArrayLiteralExpression(entry.initializer) ? entry.initializer.elements : [];
    return list.filter(ts.isStringLiteral).map((e) => e.text);
  };
  const out: Record<string, { handler: string; deps: string[]; imports: string[] }> = {};
  for (const p of objectOf(handlersFile, 'FACTORIES').properties) {
    const factory = ts.isPropertyAssignment(p) && ts.isIdentifier(p.initializer) ? p.initializer.text : '';
    const spec = importedFrom.get(factory);
    if (!spec) throw new Error(`${handlersFile}: the factory of '${propName(p)}' is not imported by name`);
    const handler = join(dir, spec);
    out[propName(p)] = { handler, deps: depsOf(propName(p)), imports: firstPartyImports(handler) };
  }
  return out;
}

/** The repository modules a file imports (as repository paths), leaving out the registry and deps every job imports. */
function firstPartyImports(file: string): string[] {
  const plumbing = /(^|\/)(queues|deps)\.ts$/;
  return parse(file)
    .statements.filter(ts.isImportDeclaration)
    .map((st) => (st.moduleSpecifier as ts.StringLiteral).text)
    .map((spec) => (spec.startsWith('@cc/shared/') ? `shared/src/${spec.slice('@cc/shared/'.length)}` : spec.startsWith('.') ? join(file, '..', spec) : ''))
    .filter((path) => path && !plumbing.test(path));
}

/** Tables the migrations leave (their up parts, in order: CREATE, DROP, RENAME), by the migration that created them. */
export function migrationTables(dir = 'infra/migrations'): { migration: string; tables: string[] }[] {
  const createdBy = new Map<string, string>();
  const files = readdirSync(dir).filter((f) => f.endsWith('.sql')).sort();
  for (const file of files) {
    const up = readFileSync(join(dir, file), 'utf8').split(/^-- Down Migration/m)[0].replace(/--.*$/gm, '');
    const statement = /\bCREATE\s+(?:UNLOGGED\s+)?TABLE\s+(?:IF\s+NOT\s+EXISTS\s+)?(?:public\.)?"?(\w+)"?|\bDROP\s+TABLE\s+(?:IF\s+EXISTS\s+)?([\w\s,."]+?)(?:\s+CASCADE|\s+RESTRICT)?\s*;|\bALTER\s+TABLE\s+(?:IF\s+EXISTS\s+)?(?:ONLY\s+)?(?:public\.)?"?(\w+)"?\s+RENAME\s+TO\s+"?(\w+)"?/gi;
    for (const m of up.matchAll(statement)) {
      if (m[1]) createdBy.set(m[1].toLowerCase(), file);
      else if (m[2]) for (const t of m[2].split(',')) createdBy.delete(t.trim().replace(/^public\./, '').replace(/"/g, '').toLowerCase());
      else if (m[3] && m[4]) {
        const from = createdBy.get(m[3].toLowerCase());
        createdBy.delete(m[3].toLowerCase());
        if (from) createdBy.set(m[4].toLowerCase(), from);
      }
    }
  }
  return files
    .map((migration) => ({ migration, tables: [...createdBy].filter(([, f]) => f === migration).map(([t]) => t) }))
    .filter((m) => m.tables.length > 0);
}

/** Each folder of web/src/features with the pages of the route table (web/src/app/routes.ts) it provides. */
export function webFeatures(web = 'web/src'): { feature: string; pages: { path: string; title: string }[] }[] {
  const routesFile = join(web, 'app/routes.ts');
  const featureOfPage = new Map<string, string>();
  const pages: { path: string; title: string; page: string }[] = [];
  walk(parse(routesFile), (n) => {
    // const XPage = lazy(() => import('../features/<feature>/XPage.tsx')…)
    if (ts.isVariableDeclaration(n) && ts.isIdentifier(n.name) && n.initializer) {
      const m = /import\(\s*['"]\.\.\/features\/([^/'"]+)\//.exec(n.initializer.getText());
      if (m) featureOfPage.set(n.name.text, m[1]);
    }
    if (ts.isObjectLiteralExpression(n)) {
      const get = (name: string) => n.properties.find((p) => propName(p) === name);
      const [path, title, page] = [get('path'), get('title'), get('page')];
      if (path && title && page && ts.isPropertyAssignment(path) && ts.isPropertyAssignment(title) && ts.isPropertyAssignment(page)) {
        const text = (e: ts.Expression) => (ts.isStringLiteralLike(e) ? e.text : e.getText());
        pages.push({ path: text(path.initializer), title: text(title.initializer), page: page.initializer.getText() });
      }
    }
  });
  const dir = join(web, 'features');
  return readdirSync(dir)
    .filter((f) => statSync(join(dir, f)).isDirectory())
    .sort()
    .map((feature) => ({ feature, pages: pages.filter((p) => featureOfPage.get(p.page) === feature).map(({ path, title }) => ({ path, title })) }));
}

function sourceFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) ? [join(dir, e.name)] : [],
  );
}

/**
 * The wire schema files (shared/src/schemas) with the api route folders and web features that import them:
 * `api/src/routes/<area>` and `web/src/features/<area>`, other importers by their folder.
 */
export function schemaFiles(dir = 'shared/src/schemas'): { file: string; importers: string[] }[] {
  const files = readdirSync(dir).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts')).sort();
  const importers = new Map<string, Set<string>>(files.map((f) => [f, new Set()]));
  const area = (file: string) => /^(api\/src\/routes|web\/src\/features)\/[^/]+/.exec(file)?.[0] ?? relative('.', join(file, '..'));
  for (const file of ['api/src', 'web/src', 'workers/src', 'shared/src'].flatMap(sourceFiles)) {
    for (const m of readFileSync(file, 'utf8').matchAll(/^(?:import|export)\b[^;]*?from\s+['"]([^'"]+)['"]/gm)) {
      const target = m[1].startsWith('.') ? relative(dir, join(file, '..', m[1])) : m[1].replace(/^@cc\/shared\/schemas\//, '');
      const users = importers.get(target);
      if (users && relative('.', join(file, '..')) !== dir) users.add(area(file));
    }
  }
  return files.map((file) => ({ file, importers: [...importers.get(file)!].sort() }));
}

const CODE_FILE = /\.(ts|tsx|js|cjs|mjs|sql|sh|md|json|yaml|csv)$/;

/** Whether a path exists; a segment may hold `*`, `<placeholder>` or `{a,b}` (any entry that fits). */
export function pathExists(path: string, base = '.'): boolean {
  const segments = path.replace(/\/$/, '').split('/');
  const dirOnly = path.endsWith('/');
  const match = (dir: string, i: number): boolean => {
    if (i === segments.length) return !dirOnly || (existsSync(dir) && statSync(dir).isDirectory());
    const seg = segments[i];
    if (!/[*<{]/.test(seg)) return existsSync(join(dir, seg)) && match(join(dir, seg), i + 1);
    const pattern = seg
      .replace(/[.+?^$()[\]\\|]/g, '\\$&')
      .replace(/<[^>]+>|\*/g, '[^/]+')
      .replace(/\{([^}]+)\}/g, (_m, alts: string) => `(?:${alts.split(',').join('|')})`);
    const re = new RegExp(`^${pattern}$`);
    return existsSync(dir) && statSync(dir).isDirectory() && readdirSync(dir).some((e) => re.test(e) && match(join(dir, e), i + 1));
  };
  return match(base, 0);
}

/**
 * The backticked repository paths of a markdown text that do not exist. A path is a span starting with an entry of
 * one of the bases (e.g. `api/`, `README.md`; `src/` for workers/README.md), or naming a file by its extension:
 * a bare `*.md` is looked up beside the text and at the root, a bare code file name anywhere in the sources, and a
 * code file path that starts nowhere known is reported, so every path can be checked. Gitignored folders (build
 * output, `var/`) are skipped.
 */
export function missingPaths(markdown: string, bases: string[], docDir = 'docs'): string[] {
  const ignored = readFileSync('.gitignore', 'utf8')
    .split('\n')
    .filter((l) => l.endsWith('/'))
    .map((l) => l.slice(0, -1));
  const top = new Map(bases.map((b) => [b, new Set(readdirSync(b))]));
  const sources = ['api', 'workers', 'shared', 'web', 'infra', 'test'].flatMap((d) => allFiles(d)).map((f) => f.split('/').pop());
  const missing: string[] = [];
  for (const [, span] of markdown.matchAll(/`([^`\n]+)`/g)) {
    if (/\s/.test(span) || span.startsWith('/') || span.includes('://') || !/^[\w.<{*]/.test(span)) continue;
    const segments = span.split('/');
    if (segments.some((s) => ignored.includes(s))) continue;
    const base = bases.find((b) => top.get(b)!.has(segments[0]));
    if (base) {
      if (!pathExists(span, base)) missing.push(span);
    } else if (!CODE_FILE.test(span)) continue;
    else if (segments.length > 1) missing.push(`${span} (write it from the repository root)`);
    else if (span.endsWith('.md') ? !pathExists(span, docDir) && !pathExists(span) : !sources.includes(span)) missing.push(span);
  }
  return [...new Set(missing)];
}

function allFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.name === 'node_modules' || e.name === 'dist' ? [] : e.isDirectory() ? allFiles(join(dir, e.name)) : [join(dir, e.name)],
  );
}
