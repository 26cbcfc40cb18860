/** The live view's alerts: the rules evaluated against the live figures, shown in the one-line strip. */
import { useAlertCenter, type AlertCenterInput } from '../hooks/use-alert-center.js';
import { AlertBanner } from './alert-banner.js';

export const LiveAlerts = (input: AlertCenterInput) => <AlertBanner center={useAlertCenter(input)} />;
