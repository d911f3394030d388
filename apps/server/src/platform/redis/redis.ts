import { createClient } from 'redis';
import { createAdapter } from '@socket.io/redis-adapter';

export type RedisClient = ReturnType<typeof createClient>;

/** One process's connections to the shared Redis (`REDIS_URL`): commands, and a subscriber for socket.io. */
export interface Redis {
  client: RedisClient;
  /** The start of every key and channel (REDIS_PREFIX). */
  prefix: string;
  /** The socket.io adapter: events emitted to a room on one replica reach the sockets of every replica. */
  socketAdapter(): ReturnType<typeof createAdapter>;
  close(): Promise<void>;
}

/** Connects to `url` (fails fast when Redis does not answer: a replica without it would split the cluster). */
export async function openRedis(url: string, prefix = 'lamella:', log: (message: string) => void = () => undefined): Promise<Redis> {
  const client: RedisClient = createClient({ url, socket: { connectTimeout: 5000 } });
  client.on('error', (err: Error) => log(`redis: ${err.message}`));
  await client.connect();
  let subscriber: RedisClient | null = null;
  return {
    client,
    prefix,
    socketAdapter() {
      subscriber ??= client.duplicate();
      subscriber.on('error', (err: Error) => log(`redis subscriber: ${err.message}`));
      void subscriber.connect();
      return createAdapter(client, subscriber, { key: `${prefix}socket.io` });
    },
    async close() {
      await Promise.allSettled([client.close(), subscriber?.close()]);
    },
  };
}
