/** One call's row. Memoised: the feed keeps an unchanged call's object, so an unchanged row skips rendering. */
import { memo } from 'react';
import type { CallRecord } from '../../../../contract/call-record.js';
import type { CallColumn, CellContext } from './call-columns.js';

// The tint follows the alert marker the duration cell renders, so the row itself never reads the clock.
const alertTint = 'has-[[data-alert=long-ring]]:bg-warn-bg has-[[data-alert=long-call]]:bg-danger-bg';

export const CallRow = memo(function CallRow({
  call,
  rowIndex,
  height,
  columns,
  context,
}: {
  call: CallRecord;
  /** 1-based among all rows including the header, for aria-rowindex: most rows are not in the DOM. */
  rowIndex: number;
  height: number;
  columns: readonly CallColumn[];
  context: CellContext;
}) {
  return (
    <tr aria-rowindex={rowIndex} style={{ height }} className={`hover:bg-raised ${alertTint}`}>
      {columns.map(({ id, Cell }) => (
        <td key={id} className="overflow-hidden border-b border-line px-2.5 py-1 align-middle">
          <Cell call={call} context={context} />
        </td>
      ))}
    </tr>
  );
});
