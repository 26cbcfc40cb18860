/** Where alerts reach someone who is not looking: a sound (one click lets the browser play it), and notifications for a hidden tab. */
import { Button } from '../../../components/ui/button.js';
import { askForNotifications, useNotificationState } from '../utils/alert-notifications.js';
import { setSound, useSoundState } from '../utils/alert-sound.js';

export const SoundToggle = ({ className = '' }: { className?: string }) => {
  const sound = useSoundState();
  if (sound === 'unsupported') return null;
  if (sound === 'on')
    return (
      <Button size="sm" variant="ghost" aria-pressed="true" onClick={() => void setSound(false)} className={className}>
        Sound on
      </Button>
    );
  return (
    <Button size="sm" onClick={() => void setSound(true)} className={className}>
      {sound === 'waiting-for-click' ? 'Sound on: click to let the browser play' : 'Enable sound'}
    </Button>
  );
};

export const NotificationToggle = () => {
  const state = useNotificationState();
  if (state === 'unsupported') return null;
  if (state === 'granted') return <p className="text-sm text-muted">Alerts notify this browser while the tab is hidden.</p>;
  if (state === 'denied') return <p className="text-sm text-muted">This browser blocks Callboard’s notifications (its site settings can allow them).</p>;
  return (
    <Button size="sm" onClick={() => void askForNotifications()}>
      Notify me while the tab is hidden
    </Button>
  );
};
