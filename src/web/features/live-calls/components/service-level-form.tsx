/**
 * Service level's definition and the levels that colour its tiles, checked and kept in the address,
 * so a bookmark or a wall screen's link carries them.
 */
import { useId, useRef, useState, type FormEvent } from 'react';
import { Button } from '../../../components/ui/button.js';
import { NumberSetting } from '../../../components/ui/number-setting.js';
import {
  defaultServiceLevelSettings,
  SETTING_PARAMS,
  useServiceLevelSettings,
  type ServiceLevelSettings,
} from '../../../lib/service-level-settings.js';

type Field = keyof ServiceLevelSettings;

const fields: readonly { name: Field; label: string; unit: string }[] = [
  { name: 'answerWithinSeconds', label: 'Answered within', unit: 'seconds' },
  { name: 'shortAbandonSeconds', label: 'Leave out callers who give up within', unit: 'seconds' },
  { name: 'warnBelow', label: 'Service level warning below', unit: '%' },
  { name: 'criticalBelow', label: 'Service level critical below', unit: '%' },
  { name: 'waitWarnMs', label: 'Longest wait warning after', unit: 'seconds' },
  { name: 'waitCriticalMs', label: 'Longest wait critical after', unit: 'seconds' },
];

type Draft = Record<Field, string>;

const toDraft = (settings: ServiceLevelSettings): Draft =>
  Object.fromEntries(fields.map(({ name }) => [name, String(Math.round(settings[name] / SETTING_PARAMS[name].scale))])) as Draft;

const check = (draft: Draft, field: (typeof fields)[number]): string | undefined => {
  const text = draft[field.name];
  const { min, max } = SETTING_PARAMS[field.name];
  if (text.trim() === '') return `Enter ${field.unit === '%' ? 'a percentage' : 'a number of seconds'}.`;
  const value = Number(text);
  if (!Number.isInteger(value)) return `Use a whole number${field.unit === '%' ? '' : ` of ${field.unit}`}.`;
  if (value < min || value > max) return `Use ${min} to ${max}${field.unit === '%' ? ' %' : ` ${field.unit}`}.`;
  if (field.name === 'criticalBelow' && value >= Number(draft.warnBelow)) return 'Critical must be below the warning level.';
  if (field.name === 'waitCriticalMs' && value <= Number(draft.waitWarnMs)) return 'Critical must be after the warning.';
  return undefined;
};

export const ServiceLevelForm = () => {
  const [settings, save] = useServiceLevelSettings();
  const [draft, setDraft] = useState(() => toDraft(settings));
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [status, setStatus] = useState('');
  const form = useRef<HTMLFormElement>(null);
  const id = useId();

  const store = (next: ServiceLevelSettings, message: string) => {
    save(next);
    setDraft(toDraft(next));
    setErrors({});
    setStatus(message);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = Object.fromEntries(fields.map((field) => [field.name, check(draft, field)]).filter(([, error]) => error));
    setErrors(found);
    setStatus('');
    const firstInvalid = fields.find((field) => found[field.name]);
    if (firstInvalid) {
      form.current?.querySelector<HTMLInputElement>(`[name="${firstInvalid.name}"]`)?.focus();
      return;
    }
    store(
      Object.fromEntries(fields.map(({ name }) => [name, Number(draft[name]) * SETTING_PARAMS[name].scale])) as unknown as ServiceLevelSettings,
      'Saved in the address: bookmark it, or give its link to a wall screen.',
    );
  };

  return (
    <form ref={form} noValidate onSubmit={submit} aria-labelledby={`${id}-title`} className="flex w-72 flex-col gap-3">
      <div>
        <h3 id={`${id}-title`} className="font-semibold">
          Service level
        </h3>
        <p className="text-xs text-muted">What counts as answered in time, and when its tiles warn. Kept in the address.</p>
      </div>
      {fields.map((field) => (
        <NumberSetting
          key={field.name}
          id={id}
          name={field.name}
          label={field.label}
          unit={field.unit}
          min={SETTING_PARAMS[field.name].min}
          max={SETTING_PARAMS[field.name].max}
          value={draft[field.name]}
          error={errors[field.name]}
          onChange={(value) => setDraft({ ...draft, [field.name]: value })}
        />
      ))}
      <div className="flex flex-wrap items-center gap-2">
        <Button type="submit" variant="primary" size="sm">
          Save service level
        </Button>
        <Button size="sm" variant="ghost" onClick={() => store(defaultServiceLevelSettings, 'Defaults restored.')}>
          Restore defaults
        </Button>
      </div>
      <p role="status" className="text-xs text-muted">
        {status}
      </p>
    </form>
  );
};
