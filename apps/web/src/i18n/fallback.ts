/**
 * The bundled copy of packages/i18n/locales, used only when the server cannot be reached. index.ts imports this
 * module dynamically, so the translations form their own chunk and stay out of the entry chunk.
 */
export type Tree = { [key: string]: string | Tree };

const bundled = import.meta.glob<Tree>('../../../../packages/i18n/locales/*/*.json', { eager: true, import: 'default' });

/** The whole tree of one language, one branch per namespace file. */
export function bundledTree(lng: string): Tree {
  const tree: Tree = {};
  for (const [path, content] of Object.entries(bundled)) {
    const m = /locales\/(\w+)\/(\w+)\.json$/.exec(path);
    if (m && m[1] === lng) tree[m[2]] = content;
  }
  return tree;
}
