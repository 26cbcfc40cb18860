import { screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { Route, Routes, useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { formatPhoneNumber } from '../lib/format.js';
import { browserPhoneCountry, setDefaultPhoneCountry } from '../lib/phone-country.js';
import { renderWithApp } from '../test-support/render.js';
import { AppLayout } from './app-layout.js';

/** A page as click-to-call writes its numbers: no country passed, so the default applies. */
const PlainNumber = () => {
  const { search } = useLocation();
  return (
    <>
      <p>{formatPhoneNumber('02079460958')}</p>
      <output aria-label="address">{search}</output>
    </>
  );
};

const renderLayout = (url: string) =>
  renderWithApp(
    <Routes>
      <Route element={<AppLayout />}>
        <Route path="/" element={<PlainNumber />} />
      </Route>
    </Routes>,
    { url },
  );

beforeEach(() => {
  vi.stubGlobal('matchMedia', () => ({
    matches: false,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
  }));
});

afterEach(() => {
  vi.unstubAllGlobals();
  setDefaultPhoneCountry(browserPhoneCountry());
});

describe('AppLayout', () => {
  it('puts the page in the main landmark, after the banner and the navigation', () => {
    renderLayout('/?tz=UTC');
    expect(screen.getByRole('banner')).toBeInTheDocument();
    expect(screen.getByRole('navigation', { name: 'Main' })).toBeInTheDocument();
    expect(screen.getByRole('main')).toContainElement(screen.getByRole('status', { name: 'address' }));
  });

  it('names the time zone once when its short name is its name, and both otherwise', () => {
    const utc = renderLayout('/?tz=UTC');
    expect(screen.getByText(/^Times in/)).toHaveTextContent(/^Times in UTC$/);
    utc.unmount();
    renderLayout('/?tz=Europe/Paris');
    expect(screen.getByText(/^Times in/)).toHaveTextContent(/^Times in Europe\/Paris \((CET|CEST|GMT\+1|GMT\+2)\)$/);
  });

  it('shows the default country beside the time zone, and keeps a new choice in the URL for every page', async () => {
    renderLayout('/?tz=UTC&country=US');
    const picker = screen.getByRole('combobox', { name: 'Default country' });
    expect(picker).toHaveValue('US');
    expect(picker).toHaveAccessibleDescription(/without a country code/);
    expect(screen.queryByText('020 7946 0958')).not.toBeInTheDocument();

    await userEvent.setup().selectOptions(picker, 'United Kingdom (+44)');
    expect(new URLSearchParams(screen.getByRole('status', { name: 'address' }).textContent ?? '').get('country')).toBe('GB');
    expect(screen.getByText('020 7946 0958')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Analytics' })).toHaveAttribute('href', expect.stringContaining('country=GB'));
    expect(screen.getByRole('link', { name: 'Reports' })).toHaveAttribute('href', expect.stringMatching(/^\/reports\?.*country=GB/));
  });

  it("ignores a country the phone rules do not know, and uses the browser's", () => {
    renderLayout('/?country=XX');
    expect(screen.getByRole('combobox', { name: 'Default country' })).toHaveValue(browserPhoneCountry());
  });
});
