/**
 * A form of whole-number settings: each field checked on save, the first wrong one focused, the
 * saved values or the defaults put back into the fields, and what happened said in a status line.
 */
import { useId, useRef, useState, type FormEvent } from 'react';
import { Button } from './button.js';
import { NumberSetting } from './number-setting.js';

export type SettingField<Name extends string> = {
  name: Name;
  label: string;
  unit: string;
  min: number;
  max: number;
};

export type Draft<Name extends string> = Record<Name, string>;

/**
 * The state of a form checked on save: its draft, what is wrong where, and a status line. `read`
 * says what is wrong with a draft, field by field (in the form's order), and the value it stands
 * for; a save focuses the first wrong field, or stores the value and says `savedMessage`.
 */
export const useCheckedForm = <Value, DraftValue, Key extends string>({
  value,
  save,
  toDraft,
  savedMessage,
  read,
}: {
  value: Value;
  save: (next: Value) => void;
  toDraft: (value: Value) => DraftValue;
  savedMessage: string;
  read: (draft: DraftValue) => { errors: Partial<Record<Key, string>>; value: () => Value };
}) => {
  const [draft, setDraft] = useState(() => toDraft(value));
  const [errors, setErrors] = useState<Partial<Record<Key, string>>>({});
  const [status, setStatus] = useState('');
  const form = useRef<HTMLFormElement>(null);
  const id = useId();

  const store = (next: Value, message: string) => {
    save(next);
    setDraft(toDraft(next));
    setErrors({});
    setStatus(message);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const checked = read(draft);
    setErrors(checked.errors);
    setStatus('');
    const firstInvalid = Object.keys(checked.errors)[0];
    if (firstInvalid !== undefined) {
      form.current?.querySelector<HTMLInputElement>(`[name="${firstInvalid}"]`)?.focus();
      return;
    }
    store(checked.value(), savedMessage);
  };

  return { draft, setDraft, errors, status, form, id, store, submit };
};

export const SettingsForm = <Value, Name extends string>({
  title,
  description,
  saveLabel,
  savedMessage,
  fields,
  value,
  defaults,
  save,
  toDraft,
  fromDraft,
  check,
}: {
  title: string;
  description: string;
  saveLabel: string;
  savedMessage: string;
  fields: readonly SettingField<Name>[];
  value: Value;
  defaults: Value;
  save: (next: Value) => void;
  toDraft: (value: Value) => Draft<Name>;
  /** Called only once every field passed `check`. */
  fromDraft: (draft: Draft<Name>) => Value;
  /** What is wrong with one field, given the whole draft (a level may depend on another). */
  check: (draft: Draft<Name>, field: SettingField<Name>) => string | undefined;
}) => {
  const { draft, setDraft, errors, status, form, id, store, submit } = useCheckedForm({
    value,
    save,
    toDraft,
    savedMessage,
    read: (current) => {
      const found: Partial<Record<Name, string>> = {};
      for (const field of fields) {
        const error = check(current, field);
        if (error) found[field.name] = error;
      }
      return { errors: found, value: () => fromDraft(current) };
    },
  });

  return (
    <form ref={form} noValidate onSubmit={submit} aria-labelledby={`${id}-title`} className="flex w-72 flex-col gap-3">
      <div>
        <h3 id={`${id}-title`} className="font-semibold">
          {title}
        </h3>
        <p className="text-xs text-muted">{description}</p>
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
          onChange={(text) => setDraft({ ...draft, [field.name]: text })}
        />
      ))}
      <div className="flex flex-wrap items-center gap-2">
        <Button type="submit" variant="primary" size="sm">
          {saveLabel}
        </Button>
        <Button size="sm" variant="ghost" onClick={() => store(defaults, 'Defaults restored.')}>
          Restore defaults
        </Button>
      </div>
      <p role="status" className="text-xs text-muted">
        {status}
      </p>
    </form>
  );
};

/** The checks every whole-number field shares: present, whole, within its range. */
export const checkWholeNumber = (text: string, { min, max, unit }: SettingField<string>, missing: string): string | undefined => {
  if (text.trim() === '') return missing;
  const value = Number(text);
  const unitText = unit === '%' ? ' %' : ` ${unit}`;
  if (!Number.isInteger(value)) return `Use a whole number${unit === '%' ? '' : ` of ${unit}`}.`;
  if (value < min || value > max) return `Use ${min} to ${max.toLocaleString('en-US')}${unitText}.`;
  return undefined;
};
