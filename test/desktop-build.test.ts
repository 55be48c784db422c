/**
 * The desktop app as shops get it: the output of `electron-vite build` (npm test builds it before
 * the suite), not the TypeScript sources tsx runs. The built main process is started in a Node
 * child with a stand-in for the 'electron' module (test/support/electron-stand-in/): Electron is
 * the faked edge, everything behind it (the core on a temporary data folder, SQLite, the embedded
 * sandbox provider, the IPC handler's sender check and dispatch) is the built code itself. The
 * built preloads run as Electron runs a sandboxed one. It plays an installed app started with
 * ELECTRON_RENDERER_URL set, which it must ignore. And what the bundles import at run time must be
 * in package.json `dependencies`: electron-builder packs nothing else.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  channelNames,
  IPC_EVENT_CHANNEL,
  ipcChannelOf,
  type BridgeResult,
} from '#shared/bridge/contract';
import { tillDbPath } from '#main/config/data-files';
import { migrations } from '#main/store/migrations';
import { rendererCspHeader } from '#shared/csp';
import { bundleImports, packageOf, undeclaredImports } from '#support/bundle-imports';
import { assertDesktopBuildCurrent, PROJECT_ROOT } from '#support/desktop-build';
import { runSandboxedPreload } from '#support/sandboxed-preload';

const STAND_IN = fileURLToPath(new URL('./support/electron-stand-in', import.meta.url));
/** What `electron-vite dev` would set; the built main runs as an installed app, which ignores it. */
const DEV_SERVER_URL = 'http://localhost:5173/';
const packageJson = JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as {
  readonly version: string;
  readonly dependencies: Readonly<Record<string, string>>;
};

interface SmokeReport {
  readonly sandboxEnabled: boolean;
  readonly channels: readonly string[];
  readonly window: {
    readonly webPreferences: Record<string, unknown>;
    readonly loaded: { readonly file?: string } | null;
  };
  readonly appInfo: BridgeResult<{ shell: string; version: string; environment: string }>;
  readonly status: BridgeResult<{ environment: string }>;
  readonly invalidInput: BridgeResult<unknown>;
  readonly untrustedSender: BridgeResult<unknown>;
  readonly devServerSender: BridgeResult<unknown>;
  readonly csp: string | null;
  readonly display: null | {
    readonly openAnswer: { readonly action: string };
    readonly webPreferences: Record<string, unknown>;
    readonly loaded: { readonly file?: string; readonly hash?: string } | null;
    readonly sent: readonly { readonly channel: string; readonly type: string }[];
    readonly calls: Readonly<Record<string, BridgeResult<unknown>>>;
  };
  readonly handlersAfterQuit: readonly string[];
  readonly dialogs: readonly unknown[];
}

interface ChildRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Node itself, not tsx: an import that only tsx can resolve must fail here as in Electron. */
function runBuiltMain(mainFile: string, userData: string): Promise<ChildRun> {
  const child = spawn(
    process.execPath,
    ['--import', join(STAND_IN, 'register.mjs'), join(STAND_IN, 'drive-main.mjs'), mainFile],
    {
      cwd: PROJECT_ROOT,
      env: {
        ...process.env,
        TILL_STAND_IN_APP_PATH: PROJECT_ROOT,
        TILL_STAND_IN_USER_DATA: userData,
        ELECTRON_RENDERER_URL: DEV_SERVER_URL,
        // Start at login writes an autostart file under here on Linux: keep it in the temp folder.
        XDG_CONFIG_HOME: join(userData, 'xdg-config'),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const killer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  return new Promise((resolve) =>
    child.once('exit', (code) => {
      clearTimeout(killer);
      resolve({ code, stdout, stderr });
    }),
  );
}

function smokeReport(run: ChildRun): SmokeReport {
  const line = run.stdout.split('\n').find((text) => text.startsWith('DESKTOP-SMOKE '));
  if (!line) {
    throw new Error(`the built main printed no report (exit ${run.code}):\n${run.stderr}`);
  }
  return JSON.parse(line.slice('DESKTOP-SMOKE '.length)) as SmokeReport;
}

describe('the built desktop app', () => {
  let build: ReturnType<typeof assertDesktopBuildCurrent>;
  let userData: string;
  let run: ChildRun;
  let report: SmokeReport;

  beforeAll(async () => {
    build = assertDesktopBuildCurrent();
    userData = mkdtempSync(join(tmpdir(), 'till-desktop-smoke-'));
    run = await runBuiltMain(build.main, userData);
    report = smokeReport(run);
  }, 90_000);

  afterAll(() => {
    if (userData) rmSync(userData, { recursive: true, force: true });
  });

  it('starts a till in Node with Electron faked and answers a channel through its IPC handler', () => {
    expect(run.code, run.stderr).toBe(0);
    expect(report.sandboxEnabled).toBe(true);
    expect(report.channels).toEqual(channelNames.map(ipcChannelOf));
    expect(report.appInfo).toEqual({
      ok: true,
      value: {
        name: 'Transfer Till',
        version: packageJson.version,
        shell: 'electron',
        environment: 'sandbox',
      },
    });
    expect(report.status.ok && report.status.value.environment).toBe('sandbox');
  });

  it('validates input and refuses an unknown sender in the built handler', () => {
    expect(report.invalidInput).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
    expect(report.untrustedSender).toEqual({
      ok: false,
      error: { code: 'FORBIDDEN', message: 'Refused: unknown sender.' },
    });
  });

  it('opens a hardened window on the built renderer with the built preload', () => {
    const prefs = report.window.webPreferences;
    expect(prefs).toMatchObject({ contextIsolation: true, sandbox: true, nodeIntegration: false });
    expect(prefs['preload']).toBe(build.preload);
    expect(existsSync(build.preload)).toBe(true);
    expect(report.window.loaded?.file).toBe(build.rendererIndex);
  });

  it('ignores ELECTRON_RENDERER_URL as an installed app: its file, the strict CSP, no dev server', () => {
    expect(report.window.loaded).toEqual({ file: build.rendererIndex });
    expect(report.csp).toBe(rendererCspHeader({ dev: false }));
    expect(report.devServerSender).toEqual({
      ok: false,
      error: { code: 'FORBIDDEN', message: 'Refused: unknown sender.' },
    });
  });

  it('opens the customer display with the display preload, and refuses its every call', () => {
    const { display } = report;
    if (!display) throw new Error('main opened no customer display for the till’s #/display');
    expect(display.openAnswer).toEqual({ action: 'deny' });
    expect(display.webPreferences).toMatchObject({ contextIsolation: true, sandbox: true });
    expect(display.webPreferences['preload']).toBe(build.displayPreload);
    expect(display.loaded).toEqual({ file: build.rendererIndex, hash: '/display' });
    for (const answer of Object.values(display.calls)) {
      expect(answer).toEqual({
        ok: false,
        error: { code: 'FORBIDDEN', message: 'Refused: unknown sender.' },
      });
    }
    // What to show, once loaded; then only what the browser shell's display stream carries.
    expect(display.sent[0]).toEqual({ channel: IPC_EVENT_CHANNEL, type: 'display-state' });
    for (const { type } of display.sent) expect(['display-state', 'sale-changed']).toContain(type);
  });

  it('quits without asking, and closes its handlers and database first', () => {
    expect(report.dialogs).toEqual([]);
    expect(report.handlersAfterQuit).toEqual([]);
    const dbFile = tillDbPath(userData, 'sandbox');
    // A connection closed cleanly checkpoints and removes its write-ahead log.
    expect(existsSync(`${dbFile}-wal`)).toBe(false);
    const db = new Database(dbFile, { readonly: true, fileMustExist: true });
    try {
      expect(db.pragma('user_version', { simple: true })).toBe(migrations.length);
    } finally {
      db.close();
    }
  });
});

describe('the built preload', () => {
  it('exposes exactly the table’s channels and the subscription, and requires only electron', async () => {
    const { preload } = assertDesktopBuildCurrent();
    const { exposed, invoked, listeners } = runSandboxedPreload(
      readFileSync(preload, 'utf8'),
      preload,
    );
    expect([...exposed.keys()]).toEqual(['till']);
    const api = exposed.get('till') as Record<string, (input?: unknown) => unknown>;
    expect(Object.isFrozen(api)).toBe(true);
    expect(Object.keys(api).sort()).toEqual(['subscribe', ...channelNames].sort());

    await api['getStatus']?.({});
    await api['createSale']?.({ amount: '1500' });
    expect(invoked).toEqual([
      { channel: ipcChannelOf('getStatus'), input: {} },
      { channel: ipcChannelOf('createSale'), input: { amount: '1500' } },
    ]);
    const unsubscribe = api['subscribe']?.(() => undefined) as () => void;
    expect(listeners.get(IPC_EVENT_CHANNEL)?.size).toBe(1);
    unsubscribe();
    expect(listeners.get(IPC_EVENT_CHANNEL)?.size).toBe(0);
  });
});

describe('the built customer display preload', () => {
  it('exposes only the subscription, invokes nothing, and gives a late subscriber the state', () => {
    const { displayPreload } = assertDesktopBuildCurrent();
    const { exposed, invoked, listeners } = runSandboxedPreload(
      readFileSync(displayPreload, 'utf8'),
      displayPreload,
    );
    expect([...exposed.keys()]).toEqual(['tillDisplay']);
    const api = exposed.get('tillDisplay') as {
      subscribe: (l: (e: unknown) => void) => () => void;
    };
    expect(Object.isFrozen(api)).toBe(true);
    expect(Object.keys(api)).toEqual(['subscribe']);

    // Main sends the state when the page has loaded, perhaps before the page subscribes.
    const fromMain = (message: unknown) => {
      for (const listener of listeners.get(IPC_EVENT_CHANNEL) ?? []) listener({}, message);
    };
    const state = {
      type: 'display-state',
      payload: { shopName: 'Shop', tillId: 'T1', sale: null },
    };
    fromMain(state);
    const heard: unknown[] = [];
    const unsubscribe = api.subscribe((event) => heard.push(event));
    const sale = { type: 'sale-changed', payload: { id: 1 } };
    fromMain(sale);
    unsubscribe();
    fromMain(sale);
    expect(heard).toEqual([state, sale]);
    expect(invoked).toEqual([]);
  });
});

describe('runtime imports of the built bundles', () => {
  it('are all in package.json dependencies (electron and Node built-ins aside)', () => {
    const { main, preload, displayPreload } = assertDesktopBuildCurrent();
    const mainImports = bundleImports(main, readFileSync(main, 'utf8'));
    // The few the app cannot start without: if the reader found none of them, it is broken.
    expect(mainImports.specifiers).toEqual(
      expect.arrayContaining(['better-sqlite3', 'electron', 'zod']),
    );
    expect(undeclaredImports(mainImports, packageJson.dependencies, ['electron'])).toEqual([]);
    for (const file of [preload, displayPreload]) {
      // A sandboxed preload can require nothing else (no chunk shared between the two either).
      expect(bundleImports(file, readFileSync(file, 'utf8'))).toEqual({
        specifiers: ['electron'],
        computed: [],
      });
    }
  });

  it('dependencies lists nothing the built app does not load (electron-builder would pack it)', () => {
    const { main, preload } = assertDesktopBuildCurrent();
    const loaded = new Set(
      [main, preload]
        .flatMap((file) => bundleImports(file, readFileSync(file, 'utf8')).specifiers)
        .map(packageOf),
    );
    expect(Object.keys(packageJson.dependencies).filter((name) => !loaded.has(name))).toEqual([]);
  });

  it('a dependency left out is found in the built main', () => {
    const { main } = assertDesktopBuildCurrent();
    const { pino: _pino, ...withoutPino } = packageJson.dependencies;
    expect(
      undeclaredImports(bundleImports(main, readFileSync(main, 'utf8')), withoutPino, ['electron']),
    ).toEqual(['pino']);
  });

  it('reads every form of import a bundle can make (planted)', () => {
    const planted = [
      'import a from "static-pkg";',
      'import "side-effect-pkg/register";',
      'export { b } from "@scope/re-exported/deep";',
      'export * from "star-pkg";',
      'const c = await import("dynamic-pkg");',
      'const d = require("required-pkg");',
      'const e = __require("shimmed-pkg");',
      'const f = createRequire(import.meta.url).resolve("resolved-pkg/package.json");',
      'const g = require.resolve("resolved-too");',
      'const h = await import(someName);',
      'import fs from "node:fs"; import path from "path"; import { app } from "electron";',
      'import declared from "zod"; import local from "./chunk.js";',
    ].join('\n');
    expect(
      undeclaredImports(bundleImports('planted.js', planted), { zod: '^4' }, ['electron']),
    ).toEqual(
      [
        './chunk.js (a file outside the bundle)',
        '@scope/re-exported',
        'dynamic-pkg',
        'import(someName) (a computed name)',
        'required-pkg',
        'resolved-pkg',
        'resolved-too',
        'shimmed-pkg',
        'side-effect-pkg',
        'star-pkg',
        'static-pkg',
      ].sort(),
    );
  });
});
