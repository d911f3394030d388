/**
 * `npm run screenshots`: the end-to-end set-up of playwright.config.ts (server, browser, data folder), running
 * only screenshots.shots.ts, which takes pictures of the main pages and asserts nothing of its own. The CI run
 * (`npm run test:e2e`, files *.e2e.ts) does not include it.
 */
import { defineConfig } from '@playwright/test';
import base from './playwright.config';

export default defineConfig({ ...base, testMatch: /screenshots\.shots\.ts$/ });
