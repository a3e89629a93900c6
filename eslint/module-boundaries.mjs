import path from 'node:path';

/**
 * A module under src/modules/<name>/ is used by others only through its public surface,
 * src/modules/<name>/index.ts. This rule resolves each relative import of a file inside a
 * module; when it lands in ANOTHER module anywhere but that module's index, it is an error.
 * Code outside src/modules (the app's composition, the CLI, tests) is not restricted.
 */
const moduleOf = (file) => {
  const parts = path.normalize(file).split(path.sep);
  const i = parts.lastIndexOf('modules');
  if (i < 1 || parts[i - 1] !== 'src' || i + 2 >= parts.length) return null;
  return { root: parts.slice(0, i + 2).join(path.sep), name: parts[i + 1], rest: parts.slice(i + 2).join('/') };
};

const isSurface = (rest) => rest === '' || rest === 'index' || rest === 'index.ts';

export const moduleBoundaries = {
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

export default { rules: { 'module-boundaries': moduleBoundaries } };
