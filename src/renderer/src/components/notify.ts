import { notifications } from '@mantine/notifications';
import type { ReactNode } from 'react';
import type { BridgeError } from '@shared/ipc/errors';
import { errorHeading } from './error-message';

/**
 * Toasts: news that needs no answer (a job finished, a file was saved, something went wrong in the
 * background). They fade on their own; whatever must stay (a job's outcome) is also kept where it
 * belongs (the jobs tray). A message the analyst must act on stays on the page, at its cause.
 */
export interface Toast {
  /** Replaces an earlier toast of the same id instead of stacking a second one. */
  id?: string;
  title: string;
  message?: ReactNode;
  tone?: 'info' | 'success' | 'warning' | 'error';
  /** Milliseconds; errors stay longer than news. */
  autoClose?: number | false;
}

const COLOURS = { info: 'blue', success: 'green', warning: 'orange', error: 'red' } as const;

export function notify(t: Toast): string {
  const tone = t.tone ?? 'info';
  const data = {
    title: t.title,
    message: t.message ?? '',
    color: COLOURS[tone],
    autoClose: t.autoClose ?? (tone === 'error' ? 10_000 : 5_000),
    withBorder: true,
    'data-testid': 'toast',
    'data-tone': tone,
  };
  if (t.id) {
    notifications.hide(t.id);
    return notifications.show({ ...data, id: t.id });
  }
  return notifications.show(data);
}

/** A failed background action as a toast, in the analyst's words (never the internal kind). */
export function notifyError(error: BridgeError, title?: string, id?: string): string {
  return notify({
    ...(id ? { id } : {}),
    title: title ?? errorHeading(error.kind) ?? 'Something went wrong',
    message: error.message,
    tone: 'error',
  });
}
