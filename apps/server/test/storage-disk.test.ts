import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DiskStorage } from '../src/platform/storage/storage.ts';
import { storageBehaviour } from './storage-suite.ts';

/** The disk driver against the behaviour every driver shares (storage-suite.ts). */
storageBehaviour('disk', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'lamella-disk-'));
  return { storage: new DiskStorage(join(dir, 'files')), close: () => rm(dir, { recursive: true, force: true }) };
});
