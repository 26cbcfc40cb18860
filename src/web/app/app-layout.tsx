/**
 * The frame of the dashboard's pages: brand, the navigation a person's roles use, time zone, country,
 * theme, the browser phone (it stays while the pages below change), who is signed in.
 */
import { lazy, Suspense } from 'react';
import { Link, NavLink, Outlet, useLocation } from 'react-router';
import { landingOf } from '../../contract/session.js';
import { useConnection } from '../lib/connection-context.js';
import { timeZoneLabel } from '../lib/format.js';
import { setDefaultPhoneCountry, usePhoneCountry } from '../lib/phone-country.js';
import { useAppliedTheme } from '../lib/theme.js';
import { useTimeZone } from '../lib/time-zone.js';
import { AccountControls } from './account-controls.js';
import { navPagesFor } from './navigation.js';
import { PhoneCountryPicker } from './phone-country-picker.js';
import { ThemeToggle } from './theme-toggle.js';

/**
 * Off the first screen, as whether a connection has a phone is known only once /v1/me answers. Its
 * code failing to load leaves the header without it, the page untouched (a part boundary and the
 * lazy part's retries would weigh on every first screen for a switch few have).
 */
const SoftphoneDock = lazy(() =>
  import('../features/softphone/components/softphone-dock.js').then(
    ({ SoftphoneDock: Dock }) => ({ default: Dock }),
    () => ({ default: () => null }),
  ),
);

const navClass = ({ isActive }: { isActive: boolean }) =>
  `rounded-md px-2 py-1 text-sm font-medium ${isActive ? 'bg-raised text-ink' : 'text-muted hover:text-ink'}`;

export const AppLayout = () => {
  useAppliedTheme();
  const { connection } = useConnection();
  const roles = connection?.kind === 'session' ? connection.roles : undefined;
  const timeZone = useTimeZone();
  // Before the page renders: click-to-call and other callers that pass no country read this default.
  setDefaultPhoneCountry(usePhoneCountry());
  const { search } = useLocation();
  return (
    <div className="min-h-screen">
      <a href="#main" className="sr-only focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50 focus:rounded focus:bg-panel focus:p-2">
        Skip to content
      </a>
      <header className="border-b border-line bg-panel">
        <div className="mx-auto flex max-w-[1600px] flex-wrap items-center gap-x-6 gap-y-2 px-4 py-2">
          <Link to={{ pathname: roles ? landingOf(roles) : '/', search }} className="flex items-center gap-2 font-semibold">
            <img src="/favicon.svg" alt="" className="h-6 w-6" />
            Callboard
          </Link>
          <nav aria-label="Main" className="flex items-center gap-1">
            {navPagesFor(roles).map((page) => (
              <NavLink key={page.id} to={{ pathname: page.pathname, search }} className={navClass} end={page.end}>
                {page.label}
              </NavLink>
            ))}
          </nav>
          <div className="ml-auto flex flex-wrap items-center gap-3">
            <span className="text-sm text-muted" title={timeZone}>
              Times in <strong className="text-ink">{timeZoneLabel(timeZone)}</strong>
            </span>
            <PhoneCountryPicker />
            <ThemeToggle />
            <Suspense fallback={null}>
              <SoftphoneDock />
            </Suspense>
            <AccountControls />
          </div>
        </div>
      </header>
      <main id="main" className="mx-auto max-w-[1600px] px-4 py-4">
        <Outlet />
      </main>
    </div>
  );
};
