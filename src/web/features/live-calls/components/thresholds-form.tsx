/** The supervisor's thresholds (long call, long ring, concurrent-call limit), checked and saved on this device. */
import { checkWholeNumber, SettingsForm, type Draft, type SettingField } from '../../../components/ui/settings-form.js';
import { defaultThresholds, useThresholds, type Thresholds } from '../../../lib/thresholds.js';

type Field = 'longCallMinutes' | 'longRingSeconds' | 'concurrentCalls';

const fields: readonly (SettingField<Field> & { missing: string })[] = [
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

const toDraft = (thresholds: Thresholds): Draft<Field> => ({
  longCallMinutes: String(Math.round(thresholds.longCallMs / 60_000)),
  longRingSeconds: String(Math.round(thresholds.longRingMs / 1000)),
  concurrentCalls: String(thresholds.concurrentCalls),
});

const fromDraft = (draft: Draft<Field>): Thresholds => ({
  longCallMs: Number(draft.longCallMinutes) * 60_000,
  longRingMs: Number(draft.longRingSeconds) * 1000,
  concurrentCalls: Number(draft.concurrentCalls),
});

const check = (draft: Draft<Field>, field: SettingField<Field>) =>
  checkWholeNumber(draft[field.name], field, fields.find(({ name }) => name === field.name)?.missing ?? 'Enter a number.');

export const ThresholdsForm = () => {
  const [thresholds, save] = useThresholds();
  return (
    <SettingsForm
      title="Thresholds"
      description="Rows past a threshold are tinted and marked. Saved in this browser only."
      saveLabel="Save thresholds"
      savedMessage="Saved. Rows and tiles use the new thresholds now."
      fields={fields}
      value={thresholds}
      defaults={defaultThresholds}
      save={save}
      toDraft={toDraft}
      fromDraft={fromDraft}
      check={check}
    />
  );
};
