'use strict';
const path = require('node:path');

/**
 * A module under src/modules/<name>/ is used by others only through its public surface,
 * src/modules/<name>/index.ts, and, for the SQL fragments another store composes into one
 * statement, src/modules/<name>/statements.ts (docs/decisions.md, "Module surfaces"). This rule
 * resolves each relative import of a file inside a module; when it lands in ANOTHER module
 * anywhere but those two files, it is an error.
 * Code outside src/modules (the app's composition, the CLI, tests) is not restricted.
 */
const moduleOf = (file) => {
  const parts = path.normalize(file).split(path.sep);
  const i = parts.lastIndexOf('modules');
  if (i < 1 || parts[i - 1] !== 'src' || i + 2 >= parts.length) return null;
  return { root: parts.slice(0, i + 2).join(path.sep), name: parts[i + 1], rest: parts.slice(i + 2).join('/') };
};

const isSurface = (rest) => ['', 'index', 'index.ts', 'statements', 'statements.ts'].includes(rest);

/** What an index.ts may not hand out: ORM entities and SQL (names, or the files they live in). */
const PERSISTENCE_NAME = /(Entity|Cte|Ctes)$/;
const PERSISTENCE_FILE = /(\.entity|\.sql|\.store|\/statements)$/;
const STORE_CLASS = /Store$/;

const moduleBoundaries = {
  meta: {
    type: 'problem',
    docs: { description: "import another module only through its index.ts" },
    messages: {
      deep: "'{{spec}}' reaches into module '{{target}}' ({{rest}}); import it from the module's index.ts instead",
    },
    schema: [],
  },
  create(context) {
    const file = context.filename ?? context.getFilename();
    const own = moduleOf(file);
    if (!own) return {};
    const check = (node, spec) => {
      if (typeof spec !== 'string' || !spec.startsWith('.')) return;
      const target = moduleOf(path.resolve(path.dirname(file), spec));
      if (!target || target.name === own.name || isSurface(target.rest)) return;
      context.report({ node, messageId: 'deep', data: { spec, target: target.name, rest: target.rest } });
    };
    return {
      ImportDeclaration: (node) => check(node, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source.value),
      ExportAllDeclaration: (node) => check(node, node.source.value),
      ImportExpression: (node) => node.source.type === 'Literal' && check(node, node.source.value),
    };
  },
};

/**
 * A module's index.ts exports interfaces, plain types, services and Nest modules: no ORM entity
 * and no SQL fragment (they go in statements.ts, for stores only). A value export from a store
 * file is allowed only for the store class itself (a provider another module injects).
 */
const surfaceExports = {
  meta: {
    type: 'problem',
    docs: { description: "a module's index.ts exports no ORM entity and no SQL" },
    messages: {
      persistence: "index.ts exports '{{name}}' ({{why}}); export a plain type, or move SQL fragments to statements.ts",
    },
    schema: [],
  },
  create(context) {
    const file = context.filename ?? context.getFilename();
    const own = moduleOf(file);
    if (!own || own.rest !== 'index.ts') return {};
    return {
      ExportNamedDeclaration(node) {
        const from = node.source ? String(node.source.value) : '';
        const typeOnly = node.exportKind === 'type';
        for (const spec of node.specifiers) {
          const name = spec.exported.name ?? spec.exported.value;
          const local = spec.local.name ?? spec.local.value;
          const isType = typeOnly || spec.exportKind === 'type';
          let why = null;
          if (PERSISTENCE_NAME.test(local) || PERSISTENCE_NAME.test(name)) why = 'an ORM entity or a SQL fragment';
          else if (!isType && PERSISTENCE_FILE.test(from) && !(from.endsWith('.store') && STORE_CLASS.test(local))) why = `a value from ${from}`;
          if (why) context.report({ node: spec, messageId: 'persistence', data: { name, why } });
        }
      },
      ExportAllDeclaration(node) {
        if (PERSISTENCE_FILE.test(String(node.source.value))) context.report({ node, messageId: 'persistence', data: { name: '*', why: `everything of ${node.source.value}` } });
      },
    };
  },
};

module.exports = { rules: { 'module-boundaries': moduleBoundaries, 'surface-exports': surfaceExports } };
