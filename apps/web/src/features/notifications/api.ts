/** The notification panel's calls (contract endpoints) and its realtime feed (socket.io, user-app.md §4). */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { NOTIFICATION_EVENT, NOTIFICATIONS_EVENT, notificationsApi, type Notification } from '@lamella/contracts';
import { call } from '../../api/client';
import { acquireSocket, releaseSocket } from '../jobs/api';

export const NOTIFICATIONS_KEY = ['notifications'] as const;

export function useNotifications() {
  return useQuery({ queryKey: NOTIFICATIONS_KEY, queryFn: () => call(notificationsApi.list) });
}

/**
 * On connect the client emits `notifications` (the acknowledgement carries the list) and listens for
 * `notification`: a pushed one is added at the top (replacing the one of the same id: a batch's, updated).
 */
export function useNotificationFeed() {
  const qc = useQueryClient();
  useEffect(() => {
    const s = acquireSocket();
    const onConnect = () => {
      s.emit(NOTIFICATIONS_EVENT, (list: Notification[]) => {
        if (Array.isArray(list)) qc.setQueryData<Notification[]>(NOTIFICATIONS_KEY, list);
      });
    };
    // a batch's notification comes again, updated, as its jobs end: it replaces the listed one at the top
    const onNotification = (n: Notification) =>
      qc.setQueryData<Notification[]>(NOTIFICATIONS_KEY, (old = []) => [n, ...old.filter((x) => x.id !== n.id)]);
    s.on('connect', onConnect);
    s.on(NOTIFICATION_EVENT, onNotification);
    if (s.connected) onConnect();
    return () => {
      s.off('connect', onConnect);
      s.off(NOTIFICATION_EVENT, onNotification);
      releaseSocket();
    };
  }, [qc]);
}

type Change = { kind: 'seen' | 'delete'; id: string | 'all' };

/** Mark seen / delete, one or all; the list is updated from the answer's effect, failures are only logged (§8). */
export function useNotificationAction() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async ({ kind, id }: Change) => {
      if (kind === 'seen') return id === 'all' ? call(notificationsApi.markAllSeen) : call(notificationsApi.markSeen, { params: { id } });
      return id === 'all' ? call(notificationsApi.removeAll) : call(notificationsApi.remove, { params: { id } });
    },
    onSuccess: (_, { kind, id }) =>
      qc.setQueryData<Notification[]>(NOTIFICATIONS_KEY, (old = []) =>
        kind === 'delete'
          ? old.filter((n) => id !== 'all' && n.id !== id)
          : old.map((n) => (id === 'all' || n.id === id ? { ...n, isSeen: true } : n)),
      ),
    onError: (e) => console.error('notification action failed', e),
  });
}
