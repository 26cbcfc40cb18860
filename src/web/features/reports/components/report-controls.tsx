/** What a report covers: a period (preset days or custom ones, in the displayed zone), the interval, and the queues. */
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { INTERVAL_MINUTES } from '../../../../contract/reports.js';
import { NO_QUEUE } from '../../../../contract/queue-filter.js';
import type { ProviderScope } from '../../../../contract/paths.js';
import { Button } from '../../../components/ui/button.js';
import { useApi } from '../../../lib/api/api-context.js';
import { queueListQueryOptions } from '../../../lib/api/queues-query.js';
import { ToggleGroup } from '../../../components/ui/toggle-group.js';
import { customDaysProblem, PERIOD_PRESETS, type Day, type ReportSettings } from '../utils/report-range.js';

const inputClass = 'rounded-md border border-line bg-panel px-2 py-1 text-sm text-ink';

const CustomDaysForm = ({
  days,
  onDays,
}: {
  days: { fromDay: Day; toDay: Day };
  onDays: (days: { fromDay: Day; toDay: Day }) => void;
}) => {
  const [fromDay, setFromDay] = useState(days.fromDay);
  const [toDay, setToDay] = useState(days.toDay);
  const [problem, setProblem] = useState<string>();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = customDaysProblem(fromDay, toDay);
    setProblem(found);
    if (!found) onDays({ fromDay, toDay });
  };
  const invalid = problem ? { 'aria-invalid': true, 'aria-describedby': 'report-days-problem' } : {};
  return (
    <form onSubmit={submit} className="flex flex-wrap items-end gap-2" aria-label="Custom days" noValidate>
      <label className="flex flex-col text-sm">
        <span className="text-muted">First day</span>
        <input type="date" className={inputClass} value={fromDay} onChange={(e) => setFromDay(e.target.value)} {...invalid} />
      </label>
      <label className="flex flex-col text-sm">
        <span className="text-muted">Last day</span>
        <input type="date" className={inputClass} value={toDay} onChange={(e) => setToDay(e.target.value)} {...invalid} />
      </label>
      <Button type="submit" size="sm" variant="primary">
        Show days
      </Button>
      {problem ? (
        <p id="report-days-problem" role="alert" className="w-full text-sm text-danger">
          {problem}
        </p>
      ) : null}
    </form>
  );
};

export interface PeriodControlsProps {
  settings: ReportSettings;
  /** The days the period covers now, the last included: what the custom form starts from. */
  days: { fromDay: Day; toDay: Day };
  onSettingsChange: (settings: ReportSettings) => void;
}

const PERIOD_CHOICES = PERIOD_PRESETS.map((preset) => ({ value: preset.id, label: preset.label }));
const INTERVAL_CHOICES = INTERVAL_MINUTES.map((minutes) => ({ value: minutes, label: minutes === 60 ? '1 h' : `${minutes} min` }));

export const PeriodControls = ({ settings, days, onSettingsChange }: PeriodControlsProps) => {
  const [editing, setEditing] = useState(settings.period.kind === 'custom');
  const customShown = editing || settings.period.kind === 'custom';
  const { period, intervalMinutes } = settings;
  return (
    <div className="flex flex-wrap items-end gap-3">
      <ToggleGroup
        label="Period"
        className="flex flex-wrap gap-1"
        choices={PERIOD_CHOICES}
        selected={period.kind === 'preset' && !editing ? period.preset : undefined}
        onSelect={(preset) => {
          setEditing(false);
          onSettingsChange({ ...settings, period: { kind: 'preset', preset } });
        }}
      >
        <Button size="sm" variant={customShown ? 'primary' : 'secondary'} aria-pressed={customShown} onClick={() => setEditing(true)}>
          Custom days
        </Button>
      </ToggleGroup>
      <ToggleGroup
        label="Interval"
        choices={INTERVAL_CHOICES}
        selected={intervalMinutes}
        onSelect={(minutes) => onSettingsChange({ ...settings, intervalMinutes: minutes })}
      />
      {customShown ? (
        <CustomDaysForm
          key={`${days.fromDay}-${days.toDay}`}
          days={days}
          onDays={(chosen) => onSettingsChange({ ...settings, period: { kind: 'custom', ...chosen } })}
        />
      ) : null}
    </div>
  );
};

/**
 * The queues a report covers: every one (nothing ticked), some, or the calls in no queue, as
 * `?queue=` says. Shown where the provider has queues.
 */
export const QueueControls = ({
  scope,
  ids,
  onIdsChange,
}: {
  scope: ProviderScope;
  ids: readonly string[];
  onIdsChange: (ids: string[]) => void;
}) => {
  const client = useApi();
  const list = useQuery(queueListQueryOptions(client, scope));
  const queues = list.data?.queues ?? [];
  if (queues.length === 0) return null;
  const choices = [...queues.map((queue) => ({ id: queue.queueID, name: queue.name })), { id: NO_QUEUE, name: 'No queue' }];
  const toggle = (id: string, on: boolean) =>
    onIdsChange(choices.map((c) => c.id).filter((c) => (c === id ? on : ids.includes(c))));
  return (
    <fieldset className="flex flex-wrap items-center gap-x-4 gap-y-1 text-sm">
      <legend className="sr-only">Queues</legend>
      <span aria-hidden="true" className="text-muted">
        Queues
      </span>
      <Button
        size="sm"
        variant={ids.length === 0 ? 'primary' : 'secondary'}
        aria-pressed={ids.length === 0}
        onClick={() => onIdsChange([])}
      >
        All queues
      </Button>
      {choices.map((choice) => (
        <label key={choice.id} className="flex items-center gap-1.5">
          <input
            type="checkbox"
            className="h-4 w-4 accent-[var(--accent)]"
            checked={ids.includes(choice.id)}
            onChange={(e) => toggle(choice.id, e.target.checked)}
          />
          {choice.name}
        </label>
      ))}
    </fieldset>
  );
};
