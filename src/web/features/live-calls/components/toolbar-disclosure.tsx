/** A toolbar button that opens a panel below it; Escape or a click elsewhere closes it. */
import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { Button } from '../../../components/ui/button.js';
import { ChevronIcon } from '../../../components/ui/icons.js';

export const ToolbarDisclosure = ({
  label,
  summary,
  align = 'start',
  children,
}: {
  label: string;
  /** What is chosen inside, shown on the button so a closed filter still tells. */
  summary?: string;
  align?: 'start' | 'end';
  children: ReactNode;
}) => {
  const [open, setOpen] = useState(false);
  const panelID = useId();
  const root = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!open) return;
    const onPointerDown = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setOpen(false);
      // Focus returns to the button only when it was inside the panel, never stolen from elsewhere.
      if (root.current?.contains(document.activeElement)) root.current.querySelector('button')?.focus();
    };
    document.addEventListener('pointerdown', onPointerDown);
    document.addEventListener('keydown', onKeyDown);
    return () => {
      document.removeEventListener('pointerdown', onPointerDown);
      document.removeEventListener('keydown', onKeyDown);
    };
  }, [open]);

  return (
    <div ref={root} className="relative">
      <Button size="sm" aria-expanded={open} aria-controls={open ? panelID : undefined} onClick={() => setOpen(!open)}>
        {label}
        {summary ? (
          <span title={summary} className="max-w-40 truncate rounded bg-raised px-1.5 text-xs font-semibold">
            {summary}
          </span>
        ) : null}
        <ChevronIcon />
      </Button>
      {open ? (
        <div
          id={panelID}
          className={`absolute top-full z-20 mt-1 w-max min-w-56 rounded-md border border-line bg-panel p-3 text-ink shadow-lg ${align === 'end' ? 'right-0' : 'left-0'}`}
        >
          {children}
        </div>
      ) : null}
    </div>
  );
};
