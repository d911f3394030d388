import { Type, type Static } from 'typebox';
import { IdParams } from './common.ts';
import { endpoint } from './endpoint.ts';

/** The notification panel (user-app.md §3 "Notification", §4 socket.io, §7). */
export const Notification = Type.Object(
  {
    id: Type.String(),
    /** e.g. PROJECT_SHARED */
    type: Type.String(),
    payload: Type.Record(Type.String(), Type.Unknown()),
    isSeen: Type.Boolean(),
    createdAt: Type.String(),
  },
  { $id: 'Notification' },
);
export type Notification = Static<typeof Notification>;
export const NotificationList = Type.Array(Notification, { $id: 'NotificationList' });
export type NotificationList = Static<typeof NotificationList>;
export const NotificationsUpdated = Type.Object({ updated: Type.Integer() }, { $id: 'NotificationsUpdated' });
export type NotificationsUpdated = Static<typeof NotificationsUpdated>;
export const NotificationsDeleted = Type.Object({ deleted: Type.Integer() }, { $id: 'NotificationsDeleted' });
export type NotificationsDeleted = Static<typeof NotificationsDeleted>;

/** socket.io: the client emits this on connect (acknowledged with the list); the server pushes `notification`. */
export const NOTIFICATIONS_EVENT = 'notifications';
export const NOTIFICATION_EVENT = 'notification';
/** socket.io: the client says which model's results page it shows (`{ modelId }`, `{ modelId: null }` when none). */
export const VIEWING_EVENT = 'viewing';
/**
 * A job of the user ended while none of their pages showed that model's results (payload `{ jobId, modelId }`);
 * sandbox jobs do not notify (their page polls).
 */
export const JOB_FINISHED_NOTIFICATION = 'JOB_FINISHED';
export const JOB_FAILED_NOTIFICATION = 'JOB_FAILED';

const tags = ['notifications'] as const;
export const notificationsApi = {
  list: endpoint({ method: 'GET', path: '/notifications', operationId: 'listNotifications', tags, response: { 200: NotificationList } }),
  markAllSeen: endpoint({
    method: 'PATCH',
    path: '/notifications/all/seen',
    operationId: 'markAllNotificationsSeen',
    tags,
    response: { 200: NotificationsUpdated },
  }),
  markSeen: endpoint({
    method: 'PATCH',
    path: '/notifications/:id/seen',
    operationId: 'markNotificationSeen',
    tags,
    params: IdParams,
    response: { 200: NotificationsUpdated },
  }),
  removeAll: endpoint({
    method: 'DELETE',
    path: '/notifications/all',
    operationId: 'deleteAllNotifications',
    tags,
    response: { 200: NotificationsDeleted },
  }),
  remove: endpoint({
    method: 'DELETE',
    path: '/notifications/:id',
    operationId: 'deleteNotification',
    tags,
    params: IdParams,
    response: { 200: NotificationsDeleted },
  }),
};
