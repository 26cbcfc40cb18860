/**
 * The alert rules on counts: for each, the level that warns and the one that is critical, either
 * left empty to turn it off. Saved in the address, so a reload keeps them and the wallboard link
 * carries them to a wall screen. Where alerts reach someone not looking (sound, notifications) is
 * chosen here too.
 */
import { Button } from '../../../components/ui/button.js';
import { useCheckedForm } from '../../../components/ui/settings-form.js';
import { COUNT_RULE_IDS, COUNT_RULES, noAlertRules, useAlertRules, type AlertRules, type CountRuleID, type Levels } from '../../../lib/alert-rules.js';
import { NotificationToggle, SoundToggle } from './alert-output-controls.js';

type LevelName = keyof Levels;
type Draft = Record<CountRuleID, Record<LevelName, string>>;
type Errors = Partial<Record<`${CountRuleID}-${LevelName}`, string>>;

const LEVELS: readonly { name: LevelName; label: string }[] = [
  { name: 'warning', label: 'Warning' },
  { name: 'critical', label: 'Critical' },
];

const toDraft = (rules: AlertRules): Draft =>
  Object.fromEntries(
    COUNT_RULE_IDS.map((id) => [id, { warning: rules[id].warning?.toString() ?? '', critical: rules[id].critical?.toString() ?? '' }]),
  ) as Draft;

const readLevel = (text: string, max: number): { value?: number; error?: string } => {
  if (text.trim() === '') return {};
  const value = Number(text);
  if (!Number.isInteger(value) || value < 0 || value > max) return { error: `Use a whole number from 0 to ${max.toLocaleString('en-US')}, or leave it empty.` };
  return { value };
};

/** The rules a draft gives, or what is wrong with which field. */
export const readAlertDraft = (draft: Draft): { rules: AlertRules; errors: Errors } => {
  const rules = noAlertRules();
  const errors: Errors = {};
  for (const id of COUNT_RULE_IDS) {
    const { below, max } = COUNT_RULES[id];
    const warning = readLevel(draft[id].warning, max);
    const critical = readLevel(draft[id].critical, max);
    if (warning.error) errors[`${id}-warning`] = warning.error;
    if (critical.error) errors[`${id}-critical`] = critical.error;
    if (warning.value !== undefined && critical.value !== undefined && (below ? critical.value >= warning.value : critical.value <= warning.value))
      errors[`${id}-critical`] = below ? 'Critical must be lower than the warning.' : 'Critical must be higher than the warning.';
    rules[id] = { ...(warning.value === undefined ? {} : { warning: warning.value }), ...(critical.value === undefined ? {} : { critical: critical.value }) };
  }
  return { rules, errors };
};

export const AlertRulesForm = () => {
  const [rules, save] = useAlertRules();
  const { draft, setDraft, errors, status, form, id, store, submit } = useCheckedForm({
    value: rules,
    save,
    toDraft,
    savedMessage: 'Saved in the address: a reload keeps these alerts, and the wallboard link carries them.',
    read: (current: Draft) => {
      const read = readAlertDraft(current);
      return { errors: read.errors, value: () => read.rules };
    },
  });

  return (
    <form ref={form} noValidate onSubmit={submit} aria-labelledby={`${id}-title`} className="flex w-80 flex-col gap-3">
      <div>
        <h3 id={`${id}-title`} className="font-semibold">
          Alerts
        </h3>
        <p className="text-xs text-muted">
          A banner, the tab’s title and, where turned on, a sound and a notification. Empty is off. Service level and the longest wait alert at
          the service level settings.
        </p>
      </div>
      <table className="text-sm">
        <thead>
          <tr className="text-left text-xs text-muted">
            <th scope="col" className="pb-1 font-medium">
              Rule
            </th>
            {LEVELS.map((level) => (
              <th key={level.name} scope="col" className="pb-1 font-medium">
                {level.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {COUNT_RULE_IDS.map((rule) => (
            <tr key={rule} className="align-top">
              <th scope="row" className="py-1 pr-2 text-left font-medium">
                {COUNT_RULES[rule].label}
                <span className="block text-xs font-normal text-muted">{COUNT_RULES[rule].below ? 'fewer than' : 'at or above'}</span>
              </th>
              {LEVELS.map((level) => {
                const name = `${rule}-${level.name}` as const;
                const error = errors[name];
                return (
                  <td key={level.name} className="py-1 pr-1">
                    <input
                      id={`${id}-${name}`}
                      name={name}
                      type="number"
                      inputMode="numeric"
                      min={0}
                      max={COUNT_RULES[rule].max}
                      step={1}
                      value={draft[rule][level.name]}
                      aria-label={`${COUNT_RULES[rule].label}: ${level.label.toLowerCase()} ${COUNT_RULES[rule].below ? 'below' : 'at'}`}
                      aria-invalid={error ? true : undefined}
                      aria-describedby={error ? `${id}-${name}-error` : undefined}
                      onChange={(event) => setDraft({ ...draft, [rule]: { ...draft[rule], [level.name]: event.target.value } })}
                      className={`w-20 rounded-md border bg-panel px-2 py-1 tabular text-ink focus-visible:outline-2 focus-visible:outline-accent ${error ? 'border-danger' : 'border-line'}`}
                    />
                    {error ? (
                      <p id={`${id}-${name}-error`} className="mt-1 w-20 text-xs font-medium text-danger">
                        {error}
                      </p>
                    ) : null}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
      <div className="flex flex-wrap items-center gap-2">
        <Button type="submit" variant="primary" size="sm">
          Save alerts
        </Button>
        <Button size="sm" variant="ghost" onClick={() => store(noAlertRules(), 'Count alerts turned off.')}>
          Turn off
        </Button>
      </div>
      <p role="status" className="text-xs text-muted">
        {status}
      </p>
      <div className="flex flex-col items-start gap-2 border-t border-line pt-3">
        <SoundToggle />
        <NotificationToggle />
      </div>
    </form>
  );
};
