// ESLint rule `intercom/public-entry`: code outside an area (a server module or a console feature)
// reaches it only through its public entry, `<area>/index.ts`. An area's own files import each other
// freely. The areas are folders below the roots given in the rule's options.
import path from 'node:path';

/** `{ root: 'apps/server/src/modules' }` -> the area a file path belongs to, or null. */
function areaOf(file, roots) {
  for (const root of roots) {
    const relative = path.relative(root, file);
    if (relative.startsWith('..') || path.isAbsolute(relative)) continue;
    const [area, ...rest] = relative.split(path.sep);
    if (rest.length === 0) return null; // a file directly in the root is no area's
    return { root, area, inner: rest.join('/') };
  }
  return null;
}

const entryNames = new Set(['index', 'index.js', 'index.ts', 'index.tsx']);

export const publicEntryRule = {
  meta: {
    type: 'problem',
    docs: { description: 'Import another module or feature only through its index.ts' },
    schema: [{ type: 'object', properties: { roots: { type: 'array', items: { type: 'string' } } } }],
    messages: {
      internal:
        "'{{source}}' reaches into {{area}}'s internals; import from its public entry ({{area}}/index.ts), exporting what is needed there.",
    },
  },
  create(context) {
    const cwd = context.cwd ?? process.cwd();
    const roots = (context.options[0]?.roots ?? []).map((r) => path.resolve(cwd, r));
    const file = context.filename;
    const from = areaOf(file, roots);
    function check(node) {
      const source = node.source?.value;
      if (typeof source !== 'string' || !source.startsWith('.')) return;
      const target = areaOf(path.resolve(path.dirname(file), source), roots);
      if (!target) return;
      if (from && from.root === target.root && from.area === target.area) return;
      if (entryNames.has(target.inner)) return;
      context.report({ node: node.source, messageId: 'internal', data: { source, area: target.area } });
    }
    return {
      ImportDeclaration: check,
      ExportNamedDeclaration: check,
      ExportAllDeclaration: check,
      ImportExpression: check,
    };
  },
};

export default { rules: { 'public-entry': publicEntryRule } };
