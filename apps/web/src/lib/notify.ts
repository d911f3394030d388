/** Toasts (Mantine notifications, 5 s by default as set on the provider). */
import { notifications } from '@mantine/notifications';

export function notifySuccess(message: string, title?: string): void {
  notifications.show({ color: 'green', title, message });
}

export function notifyError(message: string, title?: string): void {
  notifications.show({ color: 'red', title, message });
}
