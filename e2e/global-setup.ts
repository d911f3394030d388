import { existsSync, mkdirSync } from 'node:fs';

/** Makes sure the fresh data folder chosen in playwright.config.ts exists (the server writes mail into it). */
export default function globalSetup(): void {
  const dir = process.env.E2E_DATA_DIR;
  if (!dir) throw new Error('E2E_DATA_DIR is not set');
  if (!existsSync(dir)) mkdirSync(dir, { recursive: true });
  console.log(`e2e data folder: ${dir}`);
}
