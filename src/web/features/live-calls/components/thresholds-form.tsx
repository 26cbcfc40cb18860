/** The supervisor's thresholds (long call, long ring, concurrent-call limit), checked and saved on this device. */
import { useId, useRef, useState, type FormEvent } from 'react';
import { Button } from '../../../components/ui/button.js';
import { NumberSetting } from '../../../components/ui/number-setting.js';
import { defaultThresholds, useThresholds, type Thresholds } from '../../../lib/thresholds.js';

type Field = 'longCallMinutes' | 'longRingSeconds' | 'concurrentCalls';
type Draft = Record<Field, string>;

const fields: readonly { name: Field; label: string; unit: string; min: number; max: number; missing: string }[] = [
  {
    name: 'longCallMinutes',
    label: 'Long call after',
    unit: 'minutes',
    min: 1,
    max: 480,
    missing: 'Enter how many minutes of talking make a call long.',
  },
  {
    name: 'longRingSeconds',
    label: 'Long ring after',
    unit: 'seconds',
    min: 5,
    max: 600,
    missing: 'Enter how many seconds of ringing make a ring long.',
  },
  {
    name: 'concurrentCalls',
    label: 'Concurrent calls limit',
    unit: 'calls',
    min: 1,
    max: 100_000,
    missing: 'Enter how many calls at once are too many.',
  },
];

const toDraft = (thresholds: Thresholds): Draft => ({
  longCallMinutes: String(Math.round(thresholds.longCallMs / 60_000)),
  longRingSeconds: String(Math.round(thresholds.longRingMs / 1000)),
  concurrentCalls: String(thresholds.concurrentCalls),
});

const check = (text: string, { unit, min, max, missing }: (typeof fields)[number]): string | undefined => {
  if (text.trim() === '') return missing;
  const value = Number(text);
  if (!Number.isInteger(value)) return `Use a whole number of ${unit}.`;
  if (value < min || value > max) return `Use ${min} to ${max.toLocaleString('en-US')} ${unit}.`;
  return undefined;
};

export const ThresholdsForm = () => {
  const [thresholds, save] = useThresholds();
  const [draft, setDraft] = useState(() => toDraft(thresholds));
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [status, setStatus] = useState('');
  const form = useRef<HTMLFormElement>(null);
  const id = useId();

  const store = (next: Thresholds, message: string) => {
    save(next);
    setDraft(toDraft(next));
    setErrors({});
    setStatus(message);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = Object.fromEntries(
      fields.map((field) => [field.name, check(draft[field.name], field)]).filter(([, error]) => error),
    );
    setErrors(found);
    setStatus('');
    const firstInvalid = fields.find((field) => found[field.name]);
    if (firstInvalid) {
      form.current?.querySelector<HTMLInputElement>(`[name="${firstInvalid.name}"]`)?.focus();
      return;
    }
    store(
      {
        longCallMs: Number(draft.longCallMinutes) * 60_000,
        longRingMs: Number(draft.longRingSeconds) * 1000,
        concurrentCalls: Number(draft.concurrentCalls),
      },
      'Saved. Rows and tiles use the new thresholds now.',
    );
  };

  return (
    <form ref={form} noValidate onSubmit={submit} aria-labelledby={`${id}-title`} className="flex w-72 flex-col gap-3">
      <div>
        <h3 id={`${id}-title`} className="font-semibold">
          Thresholds
        </h3>
        <p className="text-xs text-muted">Rows past a threshold are tinted and marked. Saved in this browser only.</p>
      </div>
      {fields.map((field) => (
        <NumberSetting
          key={field.name}
          id={id}
          name={field.name}
          label={field.label}
          unit={field.unit}
          min={field.min}
          max={field.max}
          value={draft[field.name]}
          error={errors[field.name]}
          onChange={(value) => setDraft({ ...draft, [field.name]: value })}
        />
      ))}
      <div className="flex flex-wrap items-center gap-2">
        <Button type="submit" variant="primary" size="sm">
          Save thresholds
        </Button>
        <Button size="sm" variant="ghost" onClick={() => store(defaultThresholds, 'Defaults restored.')}>
          Restore defaults
        </Button>
      </div>
      <p role="status" className="text-xs text-muted">
        {status}
      </p>
    </form>
  );
};
