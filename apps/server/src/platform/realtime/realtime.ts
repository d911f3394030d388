import type { Server as HttpServer } from 'node:http';
import { Server } from 'socket.io';
import type { Db } from '../db/client.ts';
import { authenticate, SESSION_COOKIE, type SessionOptions } from '../auth/session.ts';

/** What the socket layer answers on the client's requests; given by app.ts (the platform imports no module). */
export interface RealtimeHandlers {
  /** The list acknowledged to the `notifications` event (user-app.md §4). */
  notifications(userId: string): Promise<unknown>;
}

export interface Realtime {
  emitToUser(userId: string, event: string, payload: unknown): void;
  close(): Promise<void>;
}

const parseCookies = (header: string | undefined) =>
  Object.fromEntries(
    (header ?? '')
      .split(';')
      .map((p) => p.trim().split('='))
      .filter((p) => p.length >= 2)
      .map(([k, ...v]) => [k, decodeURIComponent(v.join('='))]),
  );

/**
 * socket.io on the server's port at /socket.io. The handshake is authenticated by the session cookie; each
 * user joins the room `user:<id>`. Fan-out is in process (one server); several replicas need the socket.io
 * PostgreSQL or Redis adapter.
 */
export function attachRealtime(server: HttpServer, db: Db, opts: SessionOptions, handlers: RealtimeHandlers): Realtime {
  const io = new Server(server, { path: '/socket.io', serveClient: false, cors: { origin: false } });
  io.use(async (socket, next) => {
    try {
      const cookies = parseCookies(socket.handshake.headers.cookie);
      if (!cookies[SESSION_COOKIE]) return next(new Error('UNAUTHENTICATED'));
      const fake = { headers: {}, cookies } as never;
      const auth = await authenticate(db, fake, opts);
      if (!auth || auth.twoFactorPending) return next(new Error('UNAUTHENTICATED'));
      socket.data.userId = auth.user.id;
      next();
    } catch (err) {
      next(err as Error);
    }
  });
  io.on('connection', (socket) => {
    void socket.join(`user:${socket.data.userId}`);
    // The client emits `notifications` on connect (user-app.md §4); the acknowledgement carries the list.
    socket.on('notifications', async (...args: unknown[]) => {
      const ack = args.find((a): a is (list: unknown) => void => typeof a === 'function');
      if (!ack) return;
      try {
        ack(await handlers.notifications(socket.data.userId as string));
      } catch {
        ack([]);
      }
    });
  });
  return {
    emitToUser: (userId, event, payload) => {
      io.to(`user:${userId}`).emit(event, payload);
    },
    // io.close() would also close the HTTP server, which Fastify owns; only the sockets are ended here.
    close: async () => {
      io.disconnectSockets(true);
      io.engine.close();
    },
  };
}
