import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import type { Config } from '../src/config.ts';

interface S3rverInstance {
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
}
type S3rverClass = new (options: Record<string, unknown>) => S3rverInstance;
// s3rver ships no type declarations; its constructor and run/close are all the tests use.
const S3rver = createRequire(import.meta.url)('s3rver') as S3rverClass;

/**
 * A real S3-compatible server (s3rver: the S3 REST API over files in a temp folder) on a random loopback port,
 * with one empty bucket. `settings` are the S3_* settings that point Lamella at it.
 */
export async function startS3Server(bucket = 'lamella') {
  const directory = await mkdtemp(join(tmpdir(), 'lamella-s3-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: bucket, configs: [] }] });
  const { port } = await server.run();
  const settings: Config['s3'] = {
    endpoint: `http://127.0.0.1:${port}`,
    bucket,
    region: 'us-east-1',
    // s3rver's fixed credentials.
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    prefix: '',
  };
  return {
    settings,
    directory,
    async close() {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
