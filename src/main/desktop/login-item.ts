/**
 * "Start at login": a login item on Windows and macOS (Electron's app.setLoginItemSettings), an
 * XDG autostart entry on Linux (Electron has no login items there). Decided here; the glue
 * calls Electron or writes/removes the file.
 */
import { posix } from 'node:path';

export interface LoginItemInput {
  readonly wanted: boolean;
  readonly platform: NodeJS.Platform;
  /** false when run from the source tree: the login item would start a bare Electron. */
  readonly packaged: boolean;
  /** process.execPath: the installed program. */
  readonly execPath: string;
  /** Linux AppImage: the .AppImage file (process.env.APPIMAGE); execPath is inside its mount. */
  readonly appImagePath: string | undefined;
  /** $XDG_CONFIG_HOME, or ~/.config when unset (see xdgConfigHome). */
  readonly configHome: string;
}

export type LoginItemPlan =
  | { readonly kind: 'login-item'; readonly openAtLogin: boolean }
  /** Write `contents` to `path`, or remove the file when contents is null. */
  | { readonly kind: 'autostart-file'; readonly path: string; readonly contents: string | null }
  | { readonly kind: 'unsupported'; readonly reason: string };

export const AUTOSTART_FILE_NAME = 'transfer-till.desktop';

/** The XDG base directory for config files. */
export function xdgConfigHome(
  env: Readonly<Record<string, string | undefined>>,
  home: string,
): string {
  const set = env['XDG_CONFIG_HOME'];
  // The spec ignores a relative value.
  return set && posix.isAbsolute(set) ? set : posix.join(home, '.config');
}

const RESERVED = /[\s"'\\><~|&;$*?#()`]/;

/**
 * One argument of a desktop entry's Exec key: quoted when it holds a reserved character, with
 * ", `, $ and \ escaped inside the quotes, then the key's own escapes (\ doubled, % doubled).
 */
export function desktopExecArgument(argument: string): string {
  if (/[\n\r]/.test(argument)) throw new RangeError('A program path cannot hold a line break');
  const quoted = RESERVED.test(argument)
    ? `"${argument.replace(/["`$\\]/g, (c) => `\\${c}`)}"`
    : argument;
  return quoted.replace(/\\/g, '\\\\').replace(/%/g, '%%');
}

export function autostartEntry(program: string): string {
  return [
    '[Desktop Entry]',
    'Type=Application',
    'Name=Transfer Till',
    "Comment=Starts the till when you log in (set in Transfer Till's Settings)",
    `Exec=${desktopExecArgument(program)}`,
    'Terminal=false',
    'X-GNOME-Autostart-enabled=true',
    '',
  ].join('\n');
}

export function loginItemPlan(input: LoginItemInput): LoginItemPlan {
  if (!input.packaged) {
    return {
      kind: 'unsupported',
      reason:
        'Start at login works in an installed copy only (this one runs from the source code).',
    };
  }
  if (input.platform === 'win32' || input.platform === 'darwin') {
    return { kind: 'login-item', openAtLogin: input.wanted };
  }
  if (input.platform === 'linux') {
    return {
      kind: 'autostart-file',
      path: posix.join(input.configHome, 'autostart', AUTOSTART_FILE_NAME),
      contents: input.wanted ? autostartEntry(input.appImagePath ?? input.execPath) : null,
    };
  }
  return { kind: 'unsupported', reason: `Start at login is not available on ${input.platform}.` };
}
