/** The analytics range: preset toggle buttons, and a custom window entered in the displayed time zone. */
import { useState, type FormEvent } from 'react';
import { Button } from '../../../components/ui/button.js';
import { fromZonedInput, toZonedInput } from '../../../lib/zoned-time.js';
import { ToggleGroup } from '../../../components/ui/toggle-group.js';
import { customWindowProblem, RANGE_PRESETS, type AnalyticsRange } from '../utils/analytics-range.js';

export interface RangePickerProps {
  range: AnalyticsRange;
  window: { from: number; to: number };
  timeZone: string;
  onRangeChange: (range: AnalyticsRange) => void;
}

const inputClass = 'rounded-md border border-line bg-panel px-2 py-1 text-sm text-ink';

const CustomRangeForm = ({ window, timeZone, onRangeChange }: Omit<RangePickerProps, 'range'>) => {
  const [from, setFrom] = useState(() => toZonedInput(window.from, timeZone));
  const [to, setTo] = useState(() => toZonedInput(window.to, timeZone));
  const [problem, setProblem] = useState<string>();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const fromMs = fromZonedInput(from, timeZone);
    const toMs = fromZonedInput(to, timeZone);
    const found = customWindowProblem(fromMs, toMs);
    setProblem(found);
    if (!found && fromMs !== undefined && toMs !== undefined) onRangeChange({ kind: 'custom', from: fromMs, to: toMs });
  };
  return (
    <form onSubmit={submit} className="flex flex-wrap items-end gap-2" aria-label="Custom range" noValidate>
      <label className="flex flex-col text-sm">
        <span className="text-muted">From ({timeZone})</span>
        <input type="datetime-local" className={inputClass} value={from} onChange={(e) => setFrom(e.target.value)} aria-invalid={problem ? true : undefined} aria-describedby={problem ? 'custom-range-problem' : undefined} />
      </label>
      <label className="flex flex-col text-sm">
        <span className="text-muted">To ({timeZone})</span>
        <input type="datetime-local" className={inputClass} value={to} onChange={(e) => setTo(e.target.value)} aria-invalid={problem ? true : undefined} aria-describedby={problem ? 'custom-range-problem' : undefined} />
      </label>
      <Button type="submit" size="sm" variant="primary">
        Show range
      </Button>
      {problem ? (
        <p id="custom-range-problem" role="alert" className="w-full text-sm text-danger">
          {problem}
        </p>
      ) : null}
    </form>
  );
};

const PRESET_CHOICES = RANGE_PRESETS.map((preset) => ({ value: preset.id, label: preset.label }));

export const RangePicker = ({ range, window, timeZone, onRangeChange }: RangePickerProps) => {
  const [editing, setEditing] = useState(range.kind === 'custom');
  const customShown = editing || range.kind === 'custom';
  return (
    <div className="flex flex-wrap items-end gap-3">
      <ToggleGroup
        label="Time range"
        choices={PRESET_CHOICES}
        selected={range.kind === 'preset' && !editing ? range.preset : undefined}
        onSelect={(preset) => {
          setEditing(false);
          onRangeChange({ kind: 'preset', preset });
        }}
      >
        <Button size="sm" variant={customShown ? 'primary' : 'secondary'} aria-pressed={customShown} onClick={() => setEditing(true)}>
          Custom
        </Button>
      </ToggleGroup>
      {customShown ? <CustomRangeForm key={`${window.from}-${window.to}-${timeZone}`} window={window} timeZone={timeZone} onRangeChange={onRangeChange} /> : null}
    </div>
  );
};
