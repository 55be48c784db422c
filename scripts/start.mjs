#!/usr/bin/env node
// `npm start`: the desktop app through electron-vite. Electron's binary is downloaded on first run;
// where that cannot happen (no internet) we stop within seconds with a clear message that points
// at the browser shell, instead of a stack trace. better-sqlite3 is also built for Electron's ABI
// into .electron-native/ (tests keep using the Node build in node_modules).
import { spawn, spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  rmSync,
  cpSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const require = createRequire(join(root, 'package.json'));
const DOWNLOAD_TIMEOUT_MS = Number(process.env.TRANSFER_TILL_ELECTRON_TIMEOUT_MS ?? 20_000);
const BROWSER_SHELL = 'npm run web';

function fail(lines) {
  process.stderr.write(`\n${lines.join('\n')}\n\n`);
  process.exit(1);
}

function electronPackageDir() {
  try {
    return dirname(require.resolve('electron/package.json'));
  } catch {
    return fail(['The electron package is not installed. Run `npm install` first.']);
  }
}

function electronBinaryPresent(dir) {
  try {
    const relative = readFileSync(join(dir, 'path.txt'), 'utf8');
    return existsSync(
      process.env.ELECTRON_OVERRIDE_DIST_PATH
        ? join(process.env.ELECTRON_OVERRIDE_DIST_PATH, relative)
        : join(dir, 'dist', relative),
    );
  } catch {
    return false;
  }
}

function ensureElectronBinary() {
  const dir = electronPackageDir();
  if (electronBinaryPresent(dir)) return dir;
  process.stdout.write('Downloading the Electron binary (first run only)...\n');
  const result = spawnSync(process.execPath, [join(dir, 'install.js')], {
    stdio: ['ignore', 'ignore', 'pipe'],
    timeout: DOWNLOAD_TIMEOUT_MS,
    encoding: 'utf8',
  });
  if (result.status === 0 && electronBinaryPresent(dir)) return dir;
  const reason =
    result.error?.code === 'ETIMEDOUT'
      ? `no answer within ${DOWNLOAD_TIMEOUT_MS / 1000} s`
      : ((result.stderr ?? '').split('\n').find((line) => line.trim()) ?? 'download failed');
  return fail([
    'Transfer Till could not start the desktop app: the Electron binary is not installed and',
    `could not be downloaded (${reason.trim()}). This machine probably has no internet access.`,
    '',
    `Use the browser shell instead, which runs the same app in your browser:  ${BROWSER_SHELL}`,
    '',
    'Or, on a machine with internet, run `npm start` again to download Electron once.',
  ]);
}

/** better-sqlite3 compiled for Electron's ABI, kept apart from the Node build used by tests. */
function ensureElectronSqlite(electronDir) {
  const electronVersion = JSON.parse(
    readFileSync(join(electronDir, 'package.json'), 'utf8'),
  ).version;
  const sqliteDir = dirname(require.resolve('better-sqlite3/package.json'));
  const sqliteVersion = JSON.parse(readFileSync(join(sqliteDir, 'package.json'), 'utf8')).version;
  const outDir = join(root, '.electron-native');
  const stamp = `electron-${electronVersion}+better-sqlite3-${sqliteVersion}`;
  const target = join(outDir, 'better_sqlite3.node');
  const stampFile = join(outDir, 'stamp');
  if (existsSync(target) && existsSync(stampFile) && readFileSync(stampFile, 'utf8') === stamp)
    return;

  process.stdout.write(
    `Building better-sqlite3 for Electron ${electronVersion} (once, about a minute)...\n`,
  );
  const work = join(outDir, 'build');
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  cpSync(sqliteDir, work, {
    recursive: true,
    filter: (src) => !src.includes(`${sqliteDir}/build`),
  });
  const env = { ...process.env };
  // npm's user config may point node-gyp at Node's own headers; Electron needs its own.
  delete env.npm_config_nodedir;
  delete env.NODEDIR;
  const gyp = process.env.npm_config_node_gyp ?? require.resolve('node-gyp/bin/node-gyp.js');
  const result = spawnSync(
    process.execPath,
    [
      gyp,
      'rebuild',
      '--release',
      `--target=${electronVersion}`,
      '--runtime=electron',
      '--dist-url=https://electronjs.org/headers',
    ],
    { cwd: work, env, stdio: 'inherit' },
  );
  if (result.status !== 0) {
    fail([
      'Could not build better-sqlite3 for Electron (it needs Electron headers from the internet and',
      'a C++ toolchain: python3, make, g++). The browser shell needs neither:  ' + BROWSER_SHELL,
    ]);
  }
  copyFileSync(join(work, 'build', 'Release', 'better_sqlite3.node'), target);
  writeFileSync(stampFile, stamp);
  rmSync(work, { recursive: true, force: true });
}

const electronDir = ensureElectronBinary();
ensureElectronSqlite(electronDir);
const child = spawn(
  process.execPath,
  [require.resolve('electron-vite/bin/electron-vite.js'), 'dev', ...process.argv.slice(2)],
  {
    cwd: root,
    stdio: 'inherit',
  },
);
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
