/**
 * `npm run build -w apps/web` builds this module for Node after the app (vite.first-screen.config.ts) and runs it with
 * the build's folder: it writes the prerendered first screen of /dashboard, one page per language
 * (`<dist>/first-screen/dashboard-<lng>.html`, prerender.tsx), which the server sends to signed-in users.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { LANGUAGES } from '../i18n';
import { firstScreenPage, initPrerenderI18n } from './prerender';

const dist = process.argv[2];
if (!dist) throw new Error('usage: node build.js <the web build folder>');
await initPrerenderI18n();
const indexHtml = readFileSync(join(dist, 'index.html'), 'utf8');
const readCss = (href: string) => readFileSync(join(dist, href), 'utf8');
mkdirSync(join(dist, 'first-screen'), { recursive: true });
for (const lng of LANGUAGES) writeFileSync(join(dist, 'first-screen', `dashboard-${lng}.html`), firstScreenPage(indexHtml, lng, readCss));
