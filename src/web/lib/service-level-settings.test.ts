import { describe, expect, it } from 'vitest';
import { defaultServiceLevelSettings, readServiceLevelSettings, serviceLevelAlert, waitAlert, writeServiceLevelSettings } from './service-level-settings.js';

describe('service level settings in the URL', () => {
  it('reads what the URL gives, in percent and seconds, and the defaults for anything else', () => {
    expect(readServiceLevelSettings(new URLSearchParams('sla=30&slshort=0&slwarn=90&slcrit=85&waitwarn=20&waitcrit=45&tz=UTC'))).toEqual({
      answerWithinSeconds: 30,
      shortAbandonSeconds: 0,
      warnBelow: 0.9,
      criticalBelow: 0.85,
      waitWarnMs: 20_000,
      waitCriticalMs: 45_000,
    });
    expect(readServiceLevelSettings(new URLSearchParams('sla=0&slshort=61&slwarn=x&waitwarn=1.5'))).toEqual(defaultServiceLevelSettings);
  });

  it('keeps critical past warning: a critical level above the warning one falls back', () => {
    expect(readServiceLevelSettings(new URLSearchParams('slwarn=60&slcrit=75'))).toMatchObject({ warnBelow: 0.8, criticalBelow: 0.7 });
    expect(readServiceLevelSettings(new URLSearchParams('waitwarn=90&waitcrit=60'))).toMatchObject({ waitWarnMs: 90_000, waitCriticalMs: 91_000 });
  });

  it('writes only what differs from the defaults, and keeps the other parameters', () => {
    const params = writeServiceLevelSettings(new URLSearchParams('tz=UTC&sla=45'), { ...defaultServiceLevelSettings, warnBelow: 0.9 });
    expect(params.toString()).toBe('tz=UTC&slwarn=90');
  });

  it('reads percentages exactly: a service level of exactly the critical level from the URL is not below it', () => {
    const settings = readServiceLevelSettings(new URLSearchParams('slwarn=90&slcrit=70'));
    expect(settings.criticalBelow).toBe(0.7);
    expect(serviceLevelAlert(0.7, settings)).toBe('warning');
    expect(writeServiceLevelSettings(new URLSearchParams(), settings).toString()).toBe('slwarn=90');
  });

  it('says which level a figure is at', () => {
    const settings = defaultServiceLevelSettings;
    expect([0.85, 0.8, 0.79, 0.7, 0.69, null].map((level) => serviceLevelAlert(level, settings))).toEqual([undefined, undefined, 'warning', 'warning', 'critical', undefined]);
    expect([undefined, 29_999, 30_000, 60_000].map((wait) => waitAlert(wait, settings))).toEqual([undefined, undefined, 'warning', 'critical']);
  });
});
