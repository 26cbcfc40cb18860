/**
 * The live view's alert strip, whose code loads once the first live data is on screen. The rules
 * read live figures, so nothing of theirs (evaluation, tracking, tones, notifications, the strip)
 * can show anything before that data; loading them after it keeps them off the first screen's
 * download. Until then the strip holds its one line, checking; should the load fail (the service
 * updated or unreachable since the page loaded), the line says so and offers a reload.
 */
import { useEffect, useState, type ComponentType } from 'react';
import { Button } from '../../../components/ui/button.js';
import { lazyComponent } from '../../../lib/lazy-component.js';
import type { AlertCenterInput } from '../hooks/use-alert-center.js';
import { AlertStripNote } from './alert-line.js';

/** Loaded once for the page: a later mount (another application chosen) renders at once. */
const rules = lazyComponent(async () => (await import('./live-alerts.js')).LiveAlerts);

export const LiveAlertStrip = (input: AlertCenterInput) => {
  // Not suspending: a failed load must leave this line, not the page, saying so.
  const [Alerts, setAlerts] = useState<ComponentType<AlertCenterInput> | undefined>(rules.loaded);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    if (Alerts !== undefined || !input.ready) return undefined;
    let current = true;
    rules.preload().then(
      (component) => current && setAlerts(() => component),
      () => current && setFailed(true),
    );
    return () => {
      current = false;
    };
  }, [Alerts, input.ready]);

  if (Alerts !== undefined) return <Alerts {...input} />;
  if (!failed) return <AlertStripNote>Checking alerts…</AlertStripNote>;
  return (
    <AlertStripNote>
      <span className="min-w-0 flex-1 truncate text-danger">Alerts could not load: reload the page to check them.</span>
      <Button size="sm" className="shrink-0" onClick={() => window.location.reload()}>
        Reload
      </Button>
    </AlertStripNote>
  );
};
