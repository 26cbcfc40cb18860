/** The Thresholds panel's forms, a module of their own: not on the live view's first screen (table-toolbar.tsx loads them lazily). */
import { AlertRulesForm } from '../../alerts/components/alert-rules-form.js';
import { ServiceLevelForm } from './service-level-form.js';
import { ThresholdsForm } from './thresholds-form.js';

export const ThresholdSettings = () => (
  <div className="flex flex-col gap-5 xl:flex-row">
    <ThresholdsForm />
    <ServiceLevelForm />
    <AlertRulesForm />
  </div>
);
