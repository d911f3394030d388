/**
 * Results in the reader's language (issue 14 item 4). The models write their result items as text in the
 * language the job ran in (packages/analysis `tr(lang, {en, de})`); stored results are never rewritten. When a
 * job is read, every text of its items is looked up in the `resultText` namespace of packages/i18n (English and
 * German, exact texts and `{{param}}` templates whose parameters are taken back out of the stored text) and
 * written again in the reader's language. A text that no key matches (a model we do not know, an admin's own
 * wording) is shown as stored. Table rows also get the `kind` of their number (count, G, pixel size) so the web
 * formats them as a metallographer expects.
 */
import { languages, translate, translations, type Language, type TranslationTree } from '@lamella/i18n';
import type { DataTableItem, ResultItem } from '@lamella/contracts';

const NAMESPACE = 'resultText';
/** Sections of resultText whose texts the models write (the others name columns and models). */
const MODEL_SECTIONS = ['table', 'tip', 'chart', 'message', 'refusal'] as const;

interface Template {
  key: string;
  pattern: RegExp;
  names: string[];
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function flatten(tree: TranslationTree, prefix: string, out: [string, string][]): [string, string][] {
  for (const [k, v] of Object.entries(tree)) {
    if (typeof v === 'string') out.push([`${prefix}${k}`, v]);
    else flatten(v, `${prefix}${k}.`, out);
  }
  return out;
}

/** Text → key for plain texts, and the templates with parameters, of both languages (built once). */
function buildIndex(): { exact: Map<string, string>; templates: Template[] } {
  const exact = new Map<string, string>();
  const templates: Template[] = [];
  for (const lng of languages) {
    const ns = translations[lng][NAMESPACE];
    if (!ns || typeof ns === 'string') continue;
    for (const section of MODEL_SECTIONS) {
      const tree = ns[section];
      if (!tree || typeof tree === 'string') continue;
      for (const [k, text] of flatten(tree, `${NAMESPACE}.${section}.`, [])) {
        const names = [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]);
        if (!names.length) {
          if (!exact.has(text)) exact.set(text, k);
          continue;
        }
        const source = text
          .split(/\{\{\s*\w+\s*\}\}/)
          .map(escape)
          .join('(.+?)');
        templates.push({ key: k, pattern: new RegExp(`^${source}$`), names });
      }
    }
  }
  return { exact, templates };
}

let index: ReturnType<typeof buildIndex> | undefined;

/** The resultText key of a stored text and its parameters, or null when no key matches. */
export function keyOfText(text: string): { key: string; params: Record<string, string> } | null {
  index ??= buildIndex();
  const key = index.exact.get(text);
  if (key) return { key, params: {} };
  for (const t of index.templates) {
    const m = t.pattern.exec(text);
    if (!m) continue;
    const params: Record<string, string> = {};
    t.names.forEach((name, i) => (params[name] = m[i + 1]));
    return { key: t.key, params };
  }
  return null;
}

/** A stored text in `lng`: translated when a key matches, else as stored. */
export function localiseText(text: string, lng: Language): string;
export function localiseText(text: string | undefined, lng: Language): string | undefined;
export function localiseText(text: string | null | undefined, lng: Language): string | null | undefined;
export function localiseText(text: string | null | undefined, lng: Language): string | null | undefined {
  if (!text) return text;
  const found = keyOfText(text);
  if (!found) return text;
  const params = Object.fromEntries(Object.entries(found.params).map(([k, v]) => [k, localNumber(v, lng)]));
  return translate(lng, found.key, params);
}

/** A decimal number taken out of a stored text, with the reader's decimal separator (the models write a point). */
function localNumber(value: string, lng: Language): string {
  if (!/^[-−]?\d+[.,]\d+$/.test(value)) return value;
  return lng === 'de' ? value.replace('.', ',') : value.replace(',', '.');
}

export type ValueKind = NonNullable<DataTableItem['rows'][number]['kind']>;

/** How the number of a table row is shown (by the key of its label): counts as integers, G to 2 decimals, pixel size to 4 significant digits. */
const KIND_OF_KEY: Record<string, ValueKind> = {
  'resultText.table.grainCount': 'count',
  'resultText.table.columnsMeasured': 'count',
  'resultText.table.crackNetworks': 'count',
  'resultText.table.poreCount': 'count',
  'resultText.table.phaseRegions': 'count',
  'resultText.table.barLength': 'count',
  'resultText.table.gPlanimetric': 'g',
  'resultText.table.gIntercept': 'g',
  'resultText.table.pixelSize': 'pixelSize',
};

/** The kind of a table row's number from its (stored) label; by the unit when the label is unknown. */
export function kindOfRow(label: string, unit: string | null | undefined): ValueKind {
  const key = keyOfText(label)?.key;
  if (key && KIND_OF_KEY[key]) return KIND_OF_KEY[key];
  if (unit === 'µm/px') return 'pixelSize';
  return 'number';
}

/** The result items in the reader's language (a new array; the stored items are not touched). */
export function localiseItems(items: ResultItem[], lng: Language): ResultItem[] {
  const t = (s: string | undefined) => localiseText(s, lng);
  return items.map((it): ResultItem => {
    switch (it.type) {
      case 'data-table':
        return {
          ...it,
          title: t(it.title),
          rows: it.rows.map((r) => ({
            ...r,
            label: localiseText(r.label, lng),
            labelTooltip: localiseText(r.labelTooltip, lng),
            kind: r.kind ?? kindOfRow(r.label, r.unit),
          })),
        };
      case 'histogram':
        return { ...it, label: t(it.label), xLabel: t(it.xLabel), yLabel: t(it.yLabel) };
      case 'bar-chart':
        return {
          ...it,
          title: t(it.title),
          xLabel: t(it.xLabel),
          yLabels: Array.isArray(it.yLabels) ? it.yLabels.map((y) => localiseText(y, lng)) : t(it.yLabels),
        };
      case 'message':
        return { ...it, title: localiseText(it.title, lng), content: localiseText(it.content, lng) };
      case 'image':
        return { ...it, title: t(it.title) };
      default:
        return it;
    }
  });
}

/**
 * A model's display name in `lng`. German readers see the German name staff stored (`displayNameDe`) when there
 * is one, else a built-in model whose name staff left as shipped reads from resultText.models.<internalName>,
 * else the stored display name. English readers see the stored display name.
 */
export function localiseModelName(model: { name: string; displayName: string; displayNameDe?: string | null }, lng: Language): string {
  if (lng === 'de' && model.displayNameDe) return model.displayNameDe;
  const key = `${NAMESPACE}.models.${model.name}`;
  const shipped = translate('en', key);
  return shipped !== key && shipped === model.displayName ? translate(lng, key) : model.displayName;
}
