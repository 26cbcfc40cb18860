/** A column's header cell: a sort button for sortable columns, with aria-sort telling the current order. */
import type { Sort } from '../hooks/use-table-params.js';
import type { CallColumn } from './call-columns.js';
import { SortIcon } from './call-icons.js';

const ariaSort = { asc: 'ascending', desc: 'descending' } as const;

export const ColumnHeader = ({ column, sort, onSort }: { column: CallColumn; sort: Sort; onSort: (sort: Sort) => void }) => {
  const dir = sort.column === column.id ? sort.dir : undefined;
  const sortable = column.sort;
  return (
    <th
      scope="col"
      aria-sort={dir ? ariaSort[dir] : undefined}
      className="sticky top-0 z-10 border-b border-line bg-panel px-2.5 py-2 text-left text-xs font-semibold whitespace-nowrap text-muted uppercase"
    >
      {sortable ? (
        <button
          type="button"
          className={`-mx-1 inline-flex items-center gap-1 rounded px-1 py-0.5 uppercase hover:bg-raised hover:text-ink focus-visible:outline-2 focus-visible:outline-accent ${dir ? 'text-ink' : ''}`}
          onClick={() => onSort({ column: column.id, dir: dir ? (dir === 'asc' ? 'desc' : 'asc') : sortable.firstDir })}
        >
          {column.header}
          <SortIcon dir={dir} />
        </button>
      ) : (
        column.header
      )}
    </th>
  );
};
