#!/usr/bin/env node
// `npx lamella analyse …`: the batch command of packages/analysis/src/batch-cli.ts (run through tsx).
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/batch-cli.ts');
const { terminateOcr } = await import('../src/ocr.ts');
let code;
try {
  code = await main(process.argv.slice(2));
} catch (e) {
  process.stderr.write(`lamella: ${e instanceof Error ? e.message : String(e)}\n`);
  code = e && e.constructor && e.constructor.name === 'UsageError' ? 2 : 1;
}
await terminateOcr();
process.exit(code);
