import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '#shared/settings-schema';
import {
  mayCheck,
  nextUpdateStatus,
  UPDATE_TIMING,
  updateErrorText,
  updateNotice,
  updatePlan,
  UPDATES_OFF,
  type UpdateEvent,
  type UpdateStatus,
} from './updates';

const withUrl = (updateUrl: string) => ({
  desktop: { ...DEFAULT_SETTINGS.desktop, updateUrl },
});
const installed = { packaged: true };

describe('updatePlan', () => {
  it('is off by default: no address, no checks', () => {
    expect(DEFAULT_SETTINGS.desktop.updateUrl).toBe('');
    expect(updatePlan(DEFAULT_SETTINGS, installed)).toEqual({
      enabled: false,
      reason: 'No update address is set, so the till never looks for updates.',
    });
    expect(updatePlan(withUrl('   '), installed).enabled).toBe(false);
  });

  it('checks a generic https feed, never downloading by itself', () => {
    expect(updatePlan(withUrl('https://updates.example.ng/till/'), installed)).toEqual({
      enabled: true,
      feed: { provider: 'generic', url: 'https://updates.example.ng/till/' },
      autoDownload: false,
      autoInstallOnAppQuit: true,
      firstCheckAfterMs: UPDATE_TIMING.firstCheckAfterMs,
      checkEveryMs: UPDATE_TIMING.checkEveryMs,
    });
  });

  it.each([
    'http://updates.example.ng/till/',
    'https://user:pw@updates.example.ng/',
    'https://updates.example.ng/?channel=beta',
    'not a url',
  ])('refuses an address a hand-edited file could hold: %s', (url) => {
    const plan = updatePlan(withUrl(url), installed);
    expect(plan.enabled).toBe(false);
    expect(!plan.enabled && plan.reason).toMatch(/^The update address cannot be used/);
  });

  it('stays off in a copy run from the source code', () => {
    const plan = updatePlan(withUrl('https://updates.example.ng/'), { packaged: false });
    expect(plan.enabled).toBe(false);
  });
});

function run(events: readonly UpdateEvent[], from: UpdateStatus = { state: 'idle' }) {
  return events.reduce(nextUpdateStatus, from);
}

const on = { type: 'plan', plan: updatePlan(withUrl('https://u.example.ng/'), installed) } as const;
const off = { type: 'plan', plan: updatePlan(DEFAULT_SETTINGS, installed) } as const;

describe('nextUpdateStatus', () => {
  it('goes from off to idle when an address is set, and back', () => {
    expect(run([on], UPDATES_OFF)).toEqual({ state: 'idle' });
    expect(run([on, off], UPDATES_OFF)).toEqual(UPDATES_OFF);
  });

  it('follows a check, a download and a ready update', () => {
    expect(
      run([
        { type: 'check-started', userAsked: false },
        { type: 'available', version: '1.4.0' },
        { type: 'download-started' },
        { type: 'progress', percent: 41.7 },
      ]),
    ).toEqual({ state: 'downloading', version: '1.4.0', percent: 41 });
    expect(
      run([
        { type: 'check-started', userAsked: false },
        { type: 'available', version: '1.4.0' },
        { type: 'download-started' },
        { type: 'downloaded', version: '1.4.0' },
        // A periodic check later does not lose the downloaded update.
        { type: 'check-started', userAsked: false },
        { type: 'not-available', at: 5 },
      ]),
    ).toEqual({ state: 'ready', version: '1.4.0' });
  });

  it('records a failed check or download in one line', () => {
    expect(
      run([
        { type: 'check-started', userAsked: true },
        { type: 'error', message: 'net::ERR_NAME_NOT_RESOLVED\n    at stack', at: 7 },
      ]),
    ).toEqual({ state: 'failed', message: 'net::ERR_NAME_NOT_RESOLVED', at: 7, during: 'check' });
    expect(
      run([
        { type: 'available', version: '2.0.0' },
        { type: 'download-started' },
        { type: 'error', message: 'sha512 checksum mismatch', at: 9 },
      ]),
    ).toMatchObject({ state: 'failed', during: 'download' });
  });

  it('ignores events once switched off, and odd orders', () => {
    expect(run([{ type: 'available', version: '1.0.0' }], UPDATES_OFF)).toEqual(UPDATES_OFF);
    expect(run([{ type: 'download-started' }])).toEqual({ state: 'idle' });
    expect(run([{ type: 'progress', percent: 50 }])).toEqual({ state: 'idle' });
    expect(
      run([{ type: 'progress', percent: 250 }], { state: 'downloading', version: '1', percent: 3 }),
    ).toEqual({ state: 'downloading', version: '1', percent: 100 });
  });
});

describe('mayCheck', () => {
  it('never runs two at once nor checks over a download or a waiting update', () => {
    expect(mayCheck({ state: 'idle' })).toBe(true);
    expect(mayCheck({ state: 'up-to-date', checkedAt: 1 })).toBe(true);
    expect(mayCheck({ state: 'failed', message: 'x', at: 1, during: 'check' })).toBe(true);
    expect(mayCheck(UPDATES_OFF)).toBe(false);
    expect(mayCheck({ state: 'checking', userAsked: false })).toBe(false);
    expect(mayCheck({ state: 'downloading', version: '1', percent: 1 })).toBe(false);
    expect(mayCheck({ state: 'ready', version: '1' })).toBe(false);
  });
});

describe('updateNotice', () => {
  const checking = (userAsked: boolean): UpdateStatus => ({ state: 'checking', userAsked });

  it('announces a new version once, and a downloaded one', () => {
    const available: UpdateStatus = { state: 'available', version: '1.4.0' };
    expect(updateNotice(checking(false), available)?.title).toBe(
      'Update available: Transfer Till 1.4.0',
    );
    expect(updateNotice(available, available)).toBeNull();
    expect(
      updateNotice(
        { state: 'downloading', version: '1.4.0', percent: 99 },
        {
          state: 'ready',
          version: '1.4.0',
        },
      )?.body,
    ).toContain('Choose "Restart to update to 1.4.0" in the tray menu');
  });

  it('answers a check someone asked for; a background check stays quiet', () => {
    const upToDate: UpdateStatus = { state: 'up-to-date', checkedAt: 1 };
    const failed: UpdateStatus = { state: 'failed', message: 'offline', at: 1, during: 'check' };
    expect(updateNotice(checking(true), upToDate)?.title).toBe('Transfer Till is up to date');
    expect(updateNotice(checking(true), failed)).toEqual({
      title: 'Could not check for updates',
      body: 'offline',
      urgent: false,
    });
    expect(updateNotice(checking(false), upToDate)).toBeNull();
    expect(updateNotice(checking(false), failed)).toBeNull();
  });

  it('always tells of a failed download (someone chose it)', () => {
    expect(
      updateNotice(
        { state: 'downloading', version: '1', percent: 5 },
        { state: 'failed', message: 'disk full', at: 1, during: 'download' },
      )?.title,
    ).toBe('The update did not download');
  });
});

describe('updateErrorText', () => {
  it('keeps one short line', () => {
    expect(updateErrorText('')).toBe('Unknown error');
    expect(updateErrorText('x'.repeat(500))).toHaveLength(200);
  });
});
