/** A filter over a few known values (state, direction): checkboxes with counts, behind a toolbar button. */
import type { ReactNode } from 'react';
import { Button } from '../../../components/ui/button.js';
import { ToolbarDisclosure } from './toolbar-disclosure.js';

interface FacetOption<T extends string> {
  value: T;
  label: string;
  icon?: ReactNode;
}

export const FacetedFilter = <T extends string>({
  label,
  options,
  selected,
  counts,
  onChange,
}: {
  label: string;
  options: readonly FacetOption<T>[];
  selected: readonly T[];
  /** Calls per value among all calls, so a supervisor sees what a choice would show before making it. */
  counts: ReadonlyMap<T, number>;
  onChange: (selected: T[]) => void;
}) => {
  const toggle = (value: T, checked: boolean) =>
    onChange(options.map((option) => option.value).filter((v) => (v === value ? checked : selected.includes(v))));
  const summary =
    selected.length === 0
      ? undefined
      : selected.length <= 2
        ? options
            .filter((o) => selected.includes(o.value))
            .map((o) => o.label)
            .join(', ')
        : `${selected.length} selected`;

  return (
    <ToolbarDisclosure label={label} summary={summary}>
      <fieldset className="flex flex-col gap-1">
        <legend className="mb-1 text-xs font-semibold tracking-wide text-muted uppercase">Show {label.toLowerCase()}</legend>
        {options.map((option) => (
          <label key={option.value} className="flex cursor-pointer items-center gap-2 rounded px-1 py-1 hover:bg-raised">
            <input
              type="checkbox"
              className="accent-accent"
              checked={selected.includes(option.value)}
              onChange={(event) => toggle(option.value, event.target.checked)}
            />
            {option.icon}
            <span className="flex-1">{option.label}</span>
            <span className="text-xs text-muted tabular">{counts.get(option.value) ?? 0}</span>
          </label>
        ))}
        {selected.length > 0 ? (
          <Button size="sm" variant="ghost" className="mt-1 self-start" onClick={() => onChange([])}>
            Show all
          </Button>
        ) : null}
      </fieldset>
    </ToolbarDisclosure>
  );
};
