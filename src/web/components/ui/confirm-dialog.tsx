/**
 * A modal question before an action that cannot be undone: it takes the focus (on the safe
 * choice), keeps Tab within it, closes on Escape, and gives the focus back where it was.
 */
import { useEffect, useId, useRef, type ReactNode } from 'react';
import { Button } from './button.js';
import { useTakeFocus } from './use-take-focus.js';

export const ConfirmDialog = ({
  title,
  children,
  confirmLabel,
  busyLabel,
  cancelLabel,
  busy,
  error,
  onConfirm,
  onCancel,
}: {
  title: string;
  /** What the action does, to whom. */
  children: ReactNode;
  confirmLabel: string;
  /** The confirm button's words while the action runs. */
  busyLabel: string;
  cancelLabel: string;
  /** While the action runs: the buttons wait. */
  busy: boolean;
  /** Why the action failed, shown in the dialog. */
  error?: ReactNode;
  onConfirm: () => void;
  onCancel: () => void;
}) => {
  const id = useId();
  const box = useRef<HTMLDivElement>(null);
  const safe = useRef<HTMLButtonElement>(null);

  useTakeFocus(safe);

  // On the document: the keys belong to the dialog wherever the focus is while it is open.
  useEffect(() => {
    const listener = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        event.preventDefault();
        onCancel();
        return;
      }
      if (event.key !== 'Tab') return;
      const buttons = [...(box.current?.querySelectorAll<HTMLButtonElement>('button:not([disabled])') ?? [])];
      const first = buttons[0];
      const last = buttons[buttons.length - 1];
      if (!first || !last) return;
      const inside = box.current?.contains(document.activeElement) ?? false;
      if (event.shiftKey && (document.activeElement === first || !inside)) {
        event.preventDefault();
        last.focus();
      } else if (!event.shiftKey && (document.activeElement === last || !inside)) {
        event.preventDefault();
        first.focus();
      }
    };
    document.addEventListener('keydown', listener);
    return () => document.removeEventListener('keydown', listener);
  }, [onCancel]);

  return (
    <div className="fixed inset-0 z-50 flex items-center justify-center bg-black/50 p-4">
      <div
        ref={box}
        role="alertdialog"
        aria-modal="true"
        aria-labelledby={`${id}-title`}
        aria-describedby={`${id}-body`}
        className="flex w-full max-w-md flex-col gap-4 rounded-lg border border-line bg-panel p-5 text-ink shadow-xl"
      >
        <h2 id={`${id}-title`} className="text-lg font-semibold">
          {title}
        </h2>
        <div id={`${id}-body`} className="text-sm">
          {children}
        </div>
        {error ? (
          <div role="alert" className="rounded-md border border-danger/40 bg-danger-bg px-3 py-2 text-sm text-danger">
            {error}
          </div>
        ) : null}
        <div className="flex flex-wrap justify-end gap-2">
          <Button ref={safe} onClick={onCancel} disabled={busy}>
            {cancelLabel}
          </Button>
          <Button variant="danger" onClick={onConfirm} disabled={busy} aria-busy={busy || undefined}>
            {busy ? busyLabel : confirmLabel}
          </Button>
        </div>
      </div>
    </div>
  );
};
