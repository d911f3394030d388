import postcss from 'postcss';

/** The class names an HTML fragment uses (its `class="…"` attributes). */
export function usedClasses(html: string): Set<string> {
  const out = new Set<string>();
  for (const m of html.matchAll(/\sclass="([^"]*)"/g)) for (const c of m[1].split(/\s+/)) if (c) out.add(c);
  return out;
}

/**
 * The part of a style sheet that a page's markup needs (first-screen/prerender.tsx): the rules whose selectors name
 * only classes the markup uses (a class inside `:not(…)` does not count), the rules without class selectors (`:root`
 * variables, `body`, `*`), @media and @supports with what they keep, and every @keyframes. The page inlines it and
 * loads the whole sheet after the prerendered markup, so the markup is painted without waiting for the sheet.
 */
export function criticalCss(css: string, html: string): string {
  const classes = usedClasses(html);
  const needed = (selector: string) =>
    [...selector.replace(/:not\((?:[^()]|\([^()]*\))*\)/g, '').matchAll(/\.(-?[_a-zA-Z][\w-]*)/g)].every((m) => classes.has(m[1]));
  const root = postcss.parse(css);
  root.walkRules((rule) => {
    if (rule.parent?.type === 'atrule' && /keyframes$/i.test((rule.parent as postcss.AtRule).name)) return;
    const kept = rule.selectors.filter(needed);
    if (kept.length === 0) rule.remove();
    else if (kept.length < rule.selectors.length) rule.selectors = kept;
  });
  // at-rules left empty (a @media whose rules all went), again until none: removing one may empty its parent
  for (let removed = true; removed;) {
    removed = false;
    root.walkAtRules((at) => {
      if (at.nodes && at.nodes.length === 0) {
        at.remove();
        removed = true;
      }
    });
  }
  return root.toString();
}
