// Folio's own lint rules, decided on resolved paths (never on how a specifier is spelled):
// - `folio/import-zones`: a file under one top-level folder imports only from the folders (or
//   files) its zone allows, minus those it forbids (server/ only from server/ and shared/, never from src/). `../../src/x`
//   and `../src/x` are told apart by resolving them against the importing file.
// - `folio/no-cycle`: no file reaches itself through static imports (type-only imports count: a
//   circle of types is still a circle a reader must untangle). Dynamic `import()` does not count:
//   it is how a lazy part is loaded after the module graph is built.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

const EXTENSIONS = ['.ts', '.tsx', '.js', '.mjs'];

/** The file a relative specifier names, or undefined (a package, a virtual module, a missing file). */
export function resolveImport(fromFile, specifier) {
  if (!specifier.startsWith('./') && !specifier.startsWith('../')) return undefined;
  const bare = specifier.replace(/[?#].*$/, '');
  const base = resolve(dirname(fromFile), bare);
  const candidates = [base, ...EXTENSIONS.map((ext) => base + ext)];
  candidates.push(...EXTENSIONS.map((ext) => join(base, `index${ext}`)));
  return candidates.find((file) => existsSync(file) && statSync(file).isFile());
}

/** The repo-relative path of `file` with forward slashes. */
function repoPath(root, file) {
  return relative(root, file).split(sep).join('/');
}

function sourcesOf(node) {
  if (
    (node.type === 'ImportDeclaration' ||
      node.type === 'ExportNamedDeclaration' ||
      node.type === 'ExportAllDeclaration') &&
    node.source
  ) {
    return [node.source];
  }
  return [];
}

const importZones = {
  meta: {
    type: 'problem',
    docs: { description: 'A top-level folder imports only from the folders it may.' },
    schema: [
      {
        type: 'object',
        properties: {
          allowed: { type: 'array', items: { type: 'string' } },
          forbidden: { type: 'array', items: { type: 'string' } },
          message: { type: 'string' },
        },
        required: ['allowed', 'message'],
        additionalProperties: false,
      },
    ],
  },
  create(context) {
    const { allowed, forbidden = [], message } = context.options[0];
    const root = context.cwd;
    const inside = (path, folders) =>
      folders.some((folder) => path === folder || path.startsWith(`${folder}/`));
    const check = (source) => {
      const specifier = String(source.value);
      if (!specifier.startsWith('./') && !specifier.startsWith('../')) return;
      const target = repoPath(
        root,
        resolve(dirname(context.filename), specifier.replace(/[?#].*$/, '')),
      );
      if (!inside(target, allowed) || inside(target, forbidden)) {
        context.report({ node: source, message: `${message} (${target})` });
      }
    };
    return {
      ImportDeclaration: (node) => sourcesOf(node).forEach(check),
      ExportNamedDeclaration: (node) => sourcesOf(node).forEach(check),
      ExportAllDeclaration: (node) => sourcesOf(node).forEach(check),
      ImportExpression: (node) => {
        if (node.source.type === 'Literal') check(node.source);
      },
    };
  },
};

/** Static imports of every file read so far, by path (a lint run reads each file once). */
const edgesCache = new Map();

/** The files `file` imports statically (its import and export-from declarations). */
export function staticImports(file) {
  const mtime = statSync(file).mtimeMs;
  const cached = edgesCache.get(file);
  if (cached && cached.mtime === mtime) return cached.edges;
  const text = readFileSync(file, 'utf8');
  const kind = file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, kind);
  const edges = [];
  for (const statement of source.statements) {
    const specifier =
      (ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)) &&
      statement.moduleSpecifier &&
      ts.isStringLiteral(statement.moduleSpecifier)
        ? statement.moduleSpecifier.text
        : undefined;
    const target = specifier && resolveImport(file, specifier);
    if (target) edges.push(target);
  }
  edgesCache.set(file, { mtime, edges });
  return edges;
}

/** A path of imports from `start` back to `goal` (depth-first, each file visited once), or null. */
export function pathBack(start, goal) {
  const visited = new Set();
  const stack = [[start, [start]]];
  while (stack.length > 0) {
    const [file, path] = stack.pop();
    if (file === goal) return path;
    if (visited.has(file)) continue;
    visited.add(file);
    for (const next of staticImports(file)) {
      if (!visited.has(next)) stack.push([next, [...path, next]]);
    }
  }
  return null;
}

const noCycle = {
  meta: {
    type: 'problem',
    docs: { description: 'No module reaches itself through static imports.' },
    schema: [],
  },
  create(context) {
    const self = resolve(context.filename);
    if (!existsSync(self)) return {};
    const root = context.cwd;
    const check = (source) => {
      const target = resolveImport(self, String(source.value));
      if (!target) return;
      const path = target === self ? [self] : pathBack(target, self);
      if (!path) return;
      const circle = [self, ...path].map((file) => repoPath(root, file)).join(' -> ');
      context.report({
        node: source,
        message: `Import cycle: ${circle}. Move what both sides share into a third module.`,
      });
    };
    return {
      ImportDeclaration: (node) => sourcesOf(node).forEach(check),
      ExportNamedDeclaration: (node) => sourcesOf(node).forEach(check),
      ExportAllDeclaration: (node) => sourcesOf(node).forEach(check),
    };
  },
};

export const folioPlugin = {
  meta: { name: 'eslint-plugin-folio' },
  rules: { 'import-zones': importZones, 'no-cycle': noCycle },
};
