/**
 * The browser phone's place in the header: its switch, for a connection that may have one. Turned
 * on, the phone (its panel, and JsSIP with it) loads and stays at the bottom of the window on every
 * page below the header, so a call goes on while the agent moves between pages.
 */
import { Suspense } from 'react';
import { PartBoundary } from '../../../components/part-boundary.js';
import { buttonClass } from '../../../components/ui/button.js';
import { PhoneIcon } from '../../../components/ui/icons.js';
import { lazyComponent } from '../../../lib/lazy-component.js';
import type { JsSIPModule } from '../phone/phone.js';
import { useSoftphoneOffer } from '../hooks/use-softphone-offer.js';
import { useSoftphoneSettings } from '../hooks/use-softphone-settings.js';

const { Component: SoftphonePanel } = lazyComponent(async () => (await import('./softphone-panel.js')).SoftphonePanel);

export const SoftphoneDock = ({ loadJsSIP }: { /** Where JsSIP comes from; its own chunk unless a test gives one. */ loadJsSIP?: () => Promise<JsSIPModule> }) => {
  const offer = useSoftphoneOffer();
  const [settings, change] = useSoftphoneSettings();
  if (!offer) return null;
  return (
    <>
      <button type="button" role="switch" aria-checked={settings.on} className={buttonClass('ghost', 'sm')} onClick={() => change({ on: !settings.on })}>
        <PhoneIcon />
        Browser phone
        <span aria-hidden="true" className={`rounded px-1 text-xs font-semibold ${settings.on ? 'bg-accent text-accent-ink' : 'bg-raised text-muted'}`}>
          {settings.on ? 'on' : 'off'}
        </span>
      </button>
      {settings.on ? (
        <div className="fixed inset-x-2 bottom-2 z-30 sm:left-auto sm:right-3 sm:bottom-3 sm:w-80">
          <PartBoundary what="The browser phone" className="rounded-lg border border-line bg-panel p-3 shadow-lg">
            <Suspense fallback={<p className="rounded-lg border border-line bg-panel p-3 text-sm shadow-lg">Loading the phone…</p>}>
              <SoftphonePanel offer={offer} settings={settings} onChange={change} {...(loadJsSIP ? { loadJsSIP } : {})} />
            </Suspense>
          </PartBoundary>
        </div>
      ) : null}
    </>
  );
};
