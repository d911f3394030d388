/**
 * Which translation keys the sources use (for completeness.test.ts; run `npx tsx packages/i18n/src/usage.ts` to
 * print the unused ones). Scanned: apps/web/src, apps/server/src, apps/launcher/src, packages/*\/src; test files
 * do not count.
 *
 * A key counts as used when it appears as a whole string literal ('auth.emailInvalid'), when a literal names one
 * of its parent nodes (`t('admin.job.ratingLevels', { returnObjects: true })` uses every level), or when it
 * matches one of DYNAMIC_KEYS below: keys that the code builds at run time (`t(`admin.menu.${page}`)`, a
 * server `details[].key`…) and that no scanner can see. i18next plural forms (`_one`, `_other`…) count as their
 * base key. Keep DYNAMIC_KEYS precise (one `*` stands for one path segment, `**` for any rest) and name the file
 * that builds the key in the comment beside each entry.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TranslationTree } from './index.ts';

export const root = fileURLToPath(new URL('../../../', import.meta.url));
const localesDir = join(root, 'packages/i18n/locales');

/**
 * Keys built at run time, by the prefix the code writes before the computed part. `rest: 'literal'`: a key
 * `<prefix><rest>` counts as used when `<rest>` appears as a string literal somewhere in the sources (enum
 * values, menu entries, step names…), so dead entries still show up; `rest: 'any'`: every key under the prefix
 * counts as used (the rest comes from data, e.g. a JSON Schema's field paths). The test fails when the sources
 * build a key from a prefix that is not listed here exactly (or under an `any` entry), and when an entry is stale.
 */
export const DYNAMIC_KEYS: readonly { prefix: string; rest: 'literal' | 'any'; where: string }[] = [
  { prefix: 'adminMessages.', rest: 'literal', where: 'server: message(lng, key) helpers of the admin modules' },
  { prefix: 'maskEditor.legend.', rest: 'literal', where: 'mask-editor/MaskLegend.tsx: the legend of the model' },
  { prefix: 'maskEditor.legendLabels.', rest: 'any', where: 'mask-editor/legend.ts: legendLabels.<kind>.<label> (by number)' },
  { prefix: 'adminErrors.', rest: 'literal', where: 'server: admin/common.ts, admin-jobs, compute-models, compute-nodes' },
  { prefix: 'errors.fields.', rest: 'literal', where: 'apps/server/src/platform/http/errors.ts: errors.fields.${field}' },
  {
    prefix: 'results.panel.overlays.',
    rest: 'literal',
    where: 'web results/resultImage.ts: overlayCaptionKey (RESULT_IMAGE_KINDS of contracts/result-formats.ts)',
  },
  {
    prefix: 'reports.job.overlays.',
    rest: 'literal',
    where: 'server reports/job-pdf.ts: overlayCaption (RESULT_IMAGE_KINDS of contracts/result-formats.ts)',
  },
  { prefix: 'errors.things.', rest: 'literal', where: 'apps/server/src/platform/http/errors.ts: errors.things.${what} (the thing a 404 names)' },
  { prefix: 'mail.', rest: 'any', where: 'apps/server/src/platform/mail/mailer.ts: mail.${template}.${part}' },
  { prefix: 'adminSettings.services.names.', rest: 'literal', where: 'admin/settings/ServiceRow.tsx (healthServices of contracts/settings.ts)' },
  { prefix: 'adminSettings.services.state.', rest: 'literal', where: 'admin/settings/ServiceRow.tsx' },
  { prefix: 'adminSettings.demo.fields.', rest: 'literal', where: 'admin/settings/DemoLicenseForm.tsx' },
  { prefix: 'adminAccounts.templates.', rest: 'literal', where: 'admin-accounts/TemplatesPage.tsx' },
  { prefix: 'admin.menu.', rest: 'literal', where: 'admin/AdminLayout.tsx, ComingSoon.tsx (entries of admin/menu.ts)' },
  { prefix: 'admin.job.', rest: 'literal', where: 'admin/jobs/JobDetailPage.tsx' },
  { prefix: 'adminJobs.attempts.outcomes.', rest: 'literal', where: 'admin/jobs/JobAttempts.tsx: the outcome of each attempt' },
  { prefix: 'admin.jobs.', rest: 'literal', where: 'admin/jobs/JobsPage.tsx (filter flags)' },
  { prefix: 'admin.jobs.statuses.', rest: 'literal', where: 'admin/jobs/JobsPage.tsx, JobDetailPage.tsx' },
  { prefix: 'admin.jobs.sources.', rest: 'literal', where: 'admin/jobs/JobsPage.tsx' },
  { prefix: 'admin.jobs.col.', rest: 'literal', where: 'admin/jobs/JobsPage.tsx' },
  { prefix: 'admin.jobs.deletedOptions.', rest: 'literal', where: 'admin/jobs/JobsPage.tsx' },
  { prefix: 'admin.params.', rest: 'any', where: 'admin/model-params/ModelParamsPage.tsx (field paths of the model schema)' },
  { prefix: 'admin.models.accessTypes.', rest: 'literal', where: 'admin/models/ModelsPage.tsx' },
  { prefix: 'admin.models.col.', rest: 'literal', where: 'admin/models/ModelsPage.tsx' },
  { prefix: 'admin.models.languages.', rest: 'literal', where: 'admin/models/ModelsPage.tsx' },
  { prefix: 'admin.models.positions.', rest: 'literal', where: 'admin/models/ModelsPage.tsx' },
  { prefix: 'admin.servers.launcherState.', rest: 'literal', where: 'admin/servers/ServersPage.tsx' },
  { prefix: 'admin.servers.nodeTypes.', rest: 'literal', where: 'admin/servers/ServersPage.tsx' },
  { prefix: 'admin.servers.status.', rest: 'literal', where: 'admin/servers/ServersPage.tsx' },
  { prefix: 'jobs.status.', rest: 'literal', where: 'jobs/StatusBadge.tsx' },
  { prefix: 'placeholders.', rest: 'literal', where: 'placeholders/PlaceholderPage.tsx: placeholders.${page}.title|text' },
  { prefix: 'pages.', rest: 'literal', where: 'public/StaticTextPage.tsx: pages.${page}.title|paragraphs' },
  { prefix: 'model.rating.tooltips.', rest: 'any', where: 'results/RatingDialog.tsx (by number)' },
  { prefix: 'admin.job.ratingLevels.', rest: 'any', where: 'admin/jobs/JobDetailPage.tsx (by number)' },
  {
    prefix: 'resultText.',
    rest: 'any',
    where: 'server jobs/localise.ts (model texts matched by value), jobs/export.ts (column.${measurement}), web lib/modelName.ts (models.${name})',
  },
  { prefix: 'results.sort.', rest: 'literal', where: 'results/ResultsPage.tsx (sort keys with _ for .)' },
  { prefix: 'sandbox.steps.', rest: 'literal', where: 'sandbox/SandboxPage.tsx' },
  { prefix: 'adminUsers.columns.', rest: 'literal', where: 'admin/users/UsersTable.tsx, ColumnsMenu.tsx (columns.ts)' },
  { prefix: 'adminImages.columns.', rest: 'literal', where: 'admin/images/ImagesFilters.tsx (IMAGE_COLUMNS of prefs.ts)' },
  { prefix: 'adminImages.shortcuts.', rest: 'literal', where: 'admin/images/ImagesFilters.tsx (SHORTCUTS of prefs.ts)' },
  { prefix: 'adminUsers.roles.', rest: 'literal', where: 'admin/users/UserCell.tsx, AssignRoleModal.tsx, ProfileTab.tsx' },
  { prefix: 'adminUsers.licenseTypes.', rest: 'literal', where: 'admin/users/LicenseText.tsx, AssignLicenseModal.tsx, LicensesTab.tsx' },
  { prefix: 'adminUsers.createdBy.', rest: 'literal', where: 'admin/users/LicenseText.tsx, LicensesTab.tsx' },
  { prefix: 'adminUsers.tabs.', rest: 'literal', where: 'admin/users/UserProfilePage.tsx' },
  { prefix: 'adminUsers.address.', rest: 'literal', where: 'admin/users/ProfileTab.tsx' },
  { prefix: 'adminUsers.jobStatus.', rest: 'literal', where: 'admin/users/StatsTab.tsx' },
  { prefix: 'adminTerms.tabs.', rest: 'literal', where: 'admin/terms/TermsPage.tsx (en, de)' },
  { prefix: 'adminTerms.labels.', rest: 'literal', where: 'admin/terms/TermsEditor.tsx (en, de)' },
  {
    prefix: 'adminTranslations.languages.',
    rest: 'literal',
    where: 'admin/settings/TranslationEntryItem.tsx, TranslationLanguageEditor.tsx (en, de)',
  },
];

type Flat = Map<string, string>;

function flatten(tree: TranslationTree, prefix = '', out: Flat = new Map()): Flat {
  for (const [k, v] of Object.entries(tree)) {
    if (typeof v === 'string') out.set(prefix + k, v);
    else flatten(v, `${prefix}${k}.`, out);
  }
  return out;
}

function readLanguage(lng: string): { files: string[]; keys: Flat } {
  const files = readdirSync(join(localesDir, lng))
    .filter((f) => f.endsWith('.json'))
    .map((f) => f.slice(0, -5))
    .sort();
  const keys: Flat = new Map();
  for (const ns of files) {
    const tree = JSON.parse(readFileSync(join(localesDir, lng, `${ns}.json`), 'utf8')) as TranslationTree;
    flatten(tree, `${ns}.`, keys);
  }
  return { files, keys };
}

export const en = readLanguage('en');
export const de = readLanguage('de');

/** This package's own tooling names namespaces and prefixes but uses no key. */
const NOT_SCANNED = new Set(['usage.ts', 'resources.ts', 'generate-resources.ts']);

function sourceFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'dist' || NOT_SCANNED.has(name)) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) sourceFiles(path, out);
    else if (/\.(ts|tsx)$/.test(name) && !/\.(test|typetest)\.tsx?$/.test(name) && !name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

export function scannedFiles(): string[] {
  const dirs = ['apps/web/src', 'apps/server/src', 'apps/launcher/src'];
  for (const pkg of readdirSync(join(root, 'packages'))) dirs.push(`packages/${pkg}/src`);
  return dirs.flatMap((d) => {
    try {
      return sourceFiles(join(root, d));
    } catch {
      return [];
    }
  });
}

/** Every string literal ('…', "…", and `…` without `${}`) of the sources made of word characters and dots. */
export function literalsInSources(): Set<string> {
  const found = new Set<string>();
  const re = /(['"`])([\w-]+(?:\.[\w-]+)*)\1/g;
  for (const file of scannedFiles()) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(re)) found.add(m[2]);
  }
  return found;
}

/**
 * The static prefixes of the keys the sources build at run time: the text before the first `${` of a template
 * literal that starts with a namespace (`admin.menu.${key}` → `admin.menu.`), with the file that builds it.
 */
export function dynamicPrefixesInSources(): { prefix: string; file: string }[] {
  const namespaces = new Set(en.files);
  const out: { prefix: string; file: string }[] = [];
  for (const file of scannedFiles()) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/`([A-Za-z]\w*)\.([\w.-]*)\$\{/g)) {
      if (namespaces.has(m[1])) out.push({ prefix: `${m[1]}.${m[2]}`, file: relative(root, file) });
    }
  }
  return out;
}

/** Built prefixes that no DYNAMIC_KEYS entry covers. */
export function unlistedDynamicPrefixes(): string[] {
  return dynamicPrefixesInSources()
    .filter(({ prefix }) => !DYNAMIC_KEYS.some((d) => prefix === d.prefix || (d.rest === 'any' && prefix.startsWith(d.prefix))))
    .map(({ prefix, file }) => `${prefix} (${file})`);
}

export const PLURAL = /_(zero|one|two|few|many|other)$/;

/** Keys of `en` that no source uses (see the header for what counts as a use). */
export function unusedKeys(): string[] {
  const literals = literalsInSources();
  return [...en.keys.keys()].filter((key) => {
    const base = key.replace(PLURAL, '');
    if (literals.has(key) || literals.has(base)) return false;
    const parts = base.split('.');
    for (let i = parts.length - 1; i >= 2; i--) if (literals.has(parts.slice(0, i).join('.'))) return false;
    return !DYNAMIC_KEYS.some((d) => {
      if (!base.startsWith(d.prefix)) return false;
      if (d.rest === 'any') return true;
      // the computed part is the rest, or its first segment (`pages.${page}.title`), or a dotted path mapped to `_`
      const rest = base.slice(d.prefix.length);
      const first = rest.split('.')[0];
      return literals.has(rest) || literals.has(first) || literals.has(rest.replace(/_/g, '.'));
    });
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  console.log(unusedKeys().join('\n'));
  const unlisted = unlistedDynamicPrefixes();
  if (unlisted.length) console.log(`\nbuilt keys without a DYNAMIC_KEYS entry:\n${unlisted.join('\n')}`);
}
