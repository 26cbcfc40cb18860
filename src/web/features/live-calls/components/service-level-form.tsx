/**
 * Service level's definition and the levels that colour its tiles, checked and kept in the address,
 * so a bookmark or a wall screen's link carries them.
 */
import { checkWholeNumber, SettingsForm, type Draft, type SettingField } from '../../../components/ui/settings-form.js';
import {
  defaultServiceLevelSettings,
  fromUnits,
  SETTING_PARAMS,
  toUnits,
  useServiceLevelSettings,
  type ServiceLevelSettings,
} from '../../../lib/service-level-settings.js';

type Field = keyof ServiceLevelSettings;

const field = (name: Field, label: string, unit: string): SettingField<Field> => ({
  name,
  label,
  unit,
  min: SETTING_PARAMS[name].min,
  max: SETTING_PARAMS[name].max,
});

const fields: readonly SettingField<Field>[] = [
  field('answerWithinSeconds', 'Answered within', 'seconds'),
  field('shortAbandonSeconds', 'Leave out callers who give up within', 'seconds'),
  field('warnBelow', 'Service level warning below', '%'),
  field('criticalBelow', 'Service level critical below', '%'),
  field('waitWarnMs', 'Longest wait warning after', 'seconds'),
  field('waitCriticalMs', 'Longest wait critical after', 'seconds'),
];

const toDraft = (settings: ServiceLevelSettings): Draft<Field> =>
  Object.fromEntries(fields.map(({ name }) => [name, String(toUnits(name, settings[name]))])) as Draft<Field>;

const fromDraft = (draft: Draft<Field>): ServiceLevelSettings => {
  const settings = { ...defaultServiceLevelSettings };
  for (const { name } of fields) settings[name] = fromUnits(name, Number(draft[name]));
  return settings;
};

const check = (draft: Draft<Field>, field: SettingField<Field>): string | undefined => {
  const error = checkWholeNumber(
    draft[field.name],
    field,
    `Enter ${field.unit === '%' ? 'a percentage' : 'a number of seconds'}.`,
  );
  if (error) return error;
  const value = Number(draft[field.name]);
  if (field.name === 'criticalBelow' && value >= Number(draft.warnBelow)) return 'Critical must be below the warning level.';
  if (field.name === 'waitCriticalMs' && value <= Number(draft.waitWarnMs)) return 'Critical must be after the warning.';
  return undefined;
};

export const ServiceLevelForm = () => {
  const [settings, save] = useServiceLevelSettings();
  return (
    <SettingsForm
      title="Service level"
      description="What counts as answered in time, and when its tiles warn. Kept in the address."
      saveLabel="Save service level"
      savedMessage="Saved in the address: bookmark it, or give its link to a wall screen."
      fields={fields}
      value={settings}
      defaults={defaultServiceLevelSettings}
      save={save}
      toDraft={toDraft}
      fromDraft={fromDraft}
      check={check}
    />
  );
};
