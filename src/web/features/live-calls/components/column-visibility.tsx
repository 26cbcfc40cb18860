/** Which optional columns are shown; the choice is kept in the URL with the rest of the view. */
import type { CallColumn, ColumnID } from './call-columns.js';
import { ToolbarDisclosure } from './toolbar-disclosure.js';

export const ColumnVisibility = ({
  columns,
  hidden,
  onChange,
}: {
  /** The columns this view can show; those that are not hideable are listed as always on. */
  columns: readonly CallColumn[];
  hidden: readonly ColumnID[];
  onChange: (hidden: ColumnID[]) => void;
}) => {
  const toggle = (id: ColumnID, visible: boolean) =>
    onChange(columns.map((column) => column.id).filter((other) => (other === id ? !visible : hidden.includes(other))));
  const hiddenCount = columns.filter((column) => hidden.includes(column.id)).length;

  return (
    <ToolbarDisclosure label="Columns" summary={hiddenCount > 0 ? `${hiddenCount} hidden` : undefined} align="end">
      <fieldset className="flex flex-col gap-1">
        <legend className="mb-1 text-xs font-semibold tracking-wide text-muted uppercase">Show columns</legend>
        {columns.map((column) => (
          <label
            key={column.id}
            className={`flex items-center gap-2 rounded px-1 py-1 ${column.hideable ? 'cursor-pointer hover:bg-raised' : 'text-muted'}`}
          >
            <input
              type="checkbox"
              className="accent-accent"
              checked={!hidden.includes(column.id)}
              disabled={!column.hideable}
              onChange={(event) => toggle(column.id, event.target.checked)}
            />
            {column.header}
            {column.hideable ? null : <span className="text-xs">(always shown)</span>}
          </label>
        ))}
      </fieldset>
    </ToolbarDisclosure>
  );
};
