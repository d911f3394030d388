import type { Server as HttpServer } from 'node:http';
import { Server, type ServerOptions } from 'socket.io';
import type { Db } from '../db/client.ts';
import { authenticate, SESSION_COOKIE, type SessionOptions } from '../auth/session.ts';

/** What the socket layer answers on the client's requests; given by app.ts (the platform imports no module). */
export interface RealtimeHandlers {
  /** The list acknowledged to the `notifications` event (user-app.md §4). */
  notifications(userId: string): Promise<unknown>;
}

export interface Realtime {
  emitToUser(userId: string, event: string, payload: unknown): void;
  /** Whether one of the user's pages (on any replica) shows the results of the model (`viewing` event). */
  isViewing(userId: string, modelId: string): Promise<boolean>;
  /**
   * The sessions of `userId` ('*': of everyone) may have changed (signed out, force-logout, password change, role
   * change, block, deletion): this server's sockets of that user whose session no longer authenticates are closed.
   */
  recheckSessions(userId: string): Promise<void>;
  close(): Promise<void>;
}

/**
 * Hands the auth change notifications (NOTIFY `lamella_auth` with the user's id, from any replica: change-cache.ts)
 * to the sockets, so a socket of an ended session is closed (issue 28 item 9). Subscribed to the change feed before
 * it starts; the realtime layer is attached when it exists.
 */
export class SocketSessionWatch {
  readonly channels = ['lamella_auth'] as const;
  private realtime: Pick<Realtime, 'recheckSessions'> | null = null;
  attach(realtime: Pick<Realtime, 'recheckSessions'>): void {
    this.realtime = realtime;
  }
  up(): void {}
  down(): void {}
  clear(): void {}
  changed(_channel: string, payload: string): void {
    void this.realtime?.recheckSessions(payload).catch(() => undefined);
  }
}

const viewingRoom = (userId: string, modelId: string) => `viewing:${userId}:${modelId}`;

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
 * user joins the room `user:<id>`. Fan-out is in process (one server) unless an `adapter` is given: with the
 * Redis adapter (REDIS_URL) an event emitted to a room on one replica reaches that room's sockets on all.
 */
export function attachRealtime(
  server: HttpServer,
  db: Db,
  opts: SessionOptions,
  handlers: RealtimeHandlers,
  adapter?: ServerOptions['adapter'],
): Realtime {
  const io = new Server(server, { path: '/socket.io', serveClient: false, cors: { origin: false }, ...(adapter ? { adapter } : {}) });
  io.use(async (socket, next) => {
    try {
      const cookies = parseCookies(socket.handshake.headers.cookie);
      if (!cookies[SESSION_COOKIE]) return next(new Error('UNAUTHENTICATED'));
      const fake = { headers: {}, cookies } as never;
      const auth = await authenticate(db, fake, opts);
      if (!auth || auth.twoFactorPending) return next(new Error('UNAUTHENTICATED'));
      socket.data.userId = auth.user.id;
      socket.data.token = cookies[SESSION_COOKIE];
      next();
    } catch (err) {
      next(err as Error);
    }
  });
  io.on('connection', (socket) => {
    void socket.join(`user:${socket.data.userId}`);
    // The results page of a model says so; a job ending while it shows needs no notification.
    socket.on('viewing', (body: unknown) => {
      for (const room of socket.rooms) if (room.startsWith('viewing:')) void socket.leave(room);
      const modelId = (body as { modelId?: unknown } | null)?.modelId;
      if (typeof modelId === 'string' && /^[0-9a-f-]{36}$/i.test(modelId)) void socket.join(viewingRoom(socket.data.userId as string, modelId));
    });
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
  // After close (the server stopping), late events (a job that ended meanwhile) are dropped: the Redis
  // connection of the adapter may already be gone.
  let closed = false;
  return {
    isViewing: async (userId, modelId) => {
      if (closed) return false;
      try {
        return (await io.in(viewingRoom(userId, modelId)).fetchSockets()).length > 0;
      } catch {
        return false; // another replica did not answer in time: notify rather than stay silent
      }
    },
    recheckSessions: async (userId) => {
      if (closed) return;
      const uncached = { ...opts, cache: null };
      for (const socket of io.of('/').sockets.values()) {
        if (userId !== '*' && socket.data.userId !== userId) continue;
        const cookies = { [SESSION_COOKIE]: socket.data.token as string };
        const auth = await authenticate(db, { headers: {}, cookies } as never, uncached).catch(() => undefined);
        // undefined: the database did not answer; keep the socket rather than drop everyone on a hiccup
        if (auth === null || (auth && (auth.twoFactorPending || auth.user.id !== socket.data.userId))) socket.disconnect(true);
      }
    },
    emitToUser: (userId, event, payload) => {
      if (!closed) io.to(`user:${userId}`).emit(event, payload);
    },
    // io.close() would also close the HTTP server, which Fastify owns; only the sockets are ended here.
    close: async () => {
      closed = true;
      io.disconnectSockets(true);
      io.engine.close();
    },
  };
}
