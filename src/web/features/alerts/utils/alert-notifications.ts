/**
 * Browser notifications of alerts, for a tab in the background. Permission is asked for only when
 * someone clicks to turn them on; a tab in view shows its banner instead.
 */
import { useSyncExternalStore } from 'react';
import type { TrackedAlert } from './alert-tracker.js';

export type NotificationState = 'unsupported' | 'default' | 'granted' | 'denied';

const listeners = new Set<() => void>();

const state = (): NotificationState =>
  typeof window === 'undefined' || typeof window.Notification !== 'function' ? 'unsupported' : (window.Notification.permission as NotificationState);

export const useNotificationState = (): NotificationState =>
  useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    state,
    () => 'unsupported',
  );

/** Called from a click: asks the browser for permission. */
export const askForNotifications = async (): Promise<void> => {
  if (state() !== 'default') return;
  await window.Notification.requestPermission();
  for (const listener of listeners) listener();
};

/** Notifies of an alert when the tab is hidden and notifications are allowed; one per rule at a time (its tag). */
export const notifyAlert = (alert: TrackedAlert): boolean => {
  if (state() !== 'granted' || document.visibilityState !== 'hidden') return false;
  const notification = new window.Notification(`${alert.level === 'critical' ? 'Critical' : 'Warning'}: ${alert.title}`, {
    body: `Callboard: ${alert.rule}.`,
    tag: `callboard-${alert.id}`,
  });
  notification.onclick = () => {
    window.focus();
    notification.close();
  };
  return true;
};
