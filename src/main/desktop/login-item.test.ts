import { describe, expect, it } from 'vitest';
import {
  autostartEntry,
  desktopExecArgument,
  loginItemPlan,
  xdgConfigHome,
  type LoginItemInput,
} from './login-item';

const base: LoginItemInput = {
  wanted: true,
  platform: 'win32',
  packaged: true,
  execPath: 'C:\\Users\\ada\\AppData\\Local\\Programs\\Transfer Till\\Transfer Till.exe',
  appImagePath: undefined,
  configHome: '/home/ada/.config',
};

describe('loginItemPlan', () => {
  it.each(['win32', 'darwin'] as const)('uses a login item on %s, on and off', (platform) => {
    expect(loginItemPlan({ ...base, platform })).toEqual({ kind: 'login-item', openAtLogin: true });
    expect(loginItemPlan({ ...base, platform, wanted: false })).toEqual({
      kind: 'login-item',
      openAtLogin: false,
    });
  });

  it('writes an XDG autostart entry on Linux, for the AppImage file when run from one', () => {
    const plan = loginItemPlan({
      ...base,
      platform: 'linux',
      execPath: '/tmp/.mount_TransfXYZ/transfer-till',
      appImagePath: '/home/ada/Apps/Transfer Till-0.2.0.AppImage',
    });
    expect(plan).toEqual({
      kind: 'autostart-file',
      path: '/home/ada/.config/autostart/transfer-till.desktop',
      contents: autostartEntry('/home/ada/Apps/Transfer Till-0.2.0.AppImage'),
    });
    expect(plan.kind === 'autostart-file' && plan.contents).toContain(
      'Exec="/home/ada/Apps/Transfer Till-0.2.0.AppImage"\n',
    );
  });

  it('removes the Linux entry when turned off', () => {
    expect(
      loginItemPlan({
        ...base,
        platform: 'linux',
        wanted: false,
        execPath: '/opt/tt/transfer-till',
      }),
    ).toEqual({
      kind: 'autostart-file',
      path: '/home/ada/.config/autostart/transfer-till.desktop',
      contents: null,
    });
  });

  it('does nothing from the source tree (it would start a bare Electron)', () => {
    expect(loginItemPlan({ ...base, packaged: false }).kind).toBe('unsupported');
    expect(loginItemPlan({ ...base, platform: 'freebsd' })).toEqual({
      kind: 'unsupported',
      reason: 'Start at login is not available on freebsd.',
    });
  });
});

describe('desktopExecArgument', () => {
  it('leaves a plain path alone and quotes one with spaces', () => {
    expect(desktopExecArgument('/opt/tt/transfer-till')).toBe('/opt/tt/transfer-till');
    expect(desktopExecArgument('/opt/Transfer Till/transfer-till')).toBe(
      '"/opt/Transfer Till/transfer-till"',
    );
  });

  it('escapes what the desktop entry spec reserves', () => {
    expect(desktopExecArgument('/a/$HOME"x`')).toBe('"/a/\\\\$HOME\\\\"x\\\\`"');
    expect(desktopExecArgument('/a/b\\c')).toBe('"/a/b\\\\\\\\c"');
    expect(desktopExecArgument('/a/100%')).toBe('/a/100%%');
    expect(() => desktopExecArgument('/a\nb')).toThrow(RangeError);
  });
});

describe('xdgConfigHome', () => {
  it('follows XDG_CONFIG_HOME when absolute, else ~/.config', () => {
    expect(xdgConfigHome({ XDG_CONFIG_HOME: '/srv/cfg' }, '/home/ada')).toBe('/srv/cfg');
    expect(xdgConfigHome({ XDG_CONFIG_HOME: 'rel' }, '/home/ada')).toBe('/home/ada/.config');
    expect(xdgConfigHome({}, '/home/ada')).toBe('/home/ada/.config');
  });
});
