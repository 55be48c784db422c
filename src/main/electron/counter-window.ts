/**
 * The desktop app in counter mode: wiring only. No core is built (no keys, no tunnel, no
 * database on this PC): one window shows the hub's own page, the hub's self-signed certificate is
 * trusted only when it is the pinned one, and the window goes nowhere but the hub. Every
 * decision is a pure function in src/main/desktop (counter-mode.ts, counter-trust.ts).
 */
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { app, dialog, session, type BrowserWindow } from 'electron';
import {
  argvWithoutCounter,
  COUNTER_MODE_FILE,
  CounterModeError,
  counterModeFileText,
  counterModeFrom,
  pairingCompleted,
  type CounterMode,
} from '#main/desktop/counter-mode';
import {
  certificateVerdict,
  COUNTER_WINDOW_TITLE,
  counterNotSavedDialog,
  counterStartFailedDialog,
  isHubUrl,
  LEAVE_CONFIRMED,
  leaveCounterModeDialog,
  loadFailureAction,
  loadRetryDelay,
  PIN_MISMATCH_LEAVE,
  pinMismatchDialog,
  START_FAILED_LEAVE,
  unreachableTitle,
  VERIFY_PROC_RESULT,
  type CounterDialog,
} from '#main/desktop/counter-trust';
import { PRIVATE_FILE_MODE } from '#main/config/private-files';
import { writeFileAtomic } from '#main/secrets/atomic-write';
import { installCounterMenu } from './menu';
import { createCounterWindow } from './window';

function counterModePath(): string {
  return join(app.getPath('userData'), COUNTER_MODE_FILE);
}

/** The saved counter setting's text, or null when this PC was never paired. */
export function readCounterModeFile(): string | null {
  try {
    return readFileSync(counterModePath(), 'utf8');
  } catch (error) {
    if (error instanceof Error && 'code' in error && error.code === 'ENOENT') return null;
    throw new CounterModeError(
      'COUNTER_MODE_FILE_DAMAGED',
      `The saved counter setting (${COUNTER_MODE_FILE}) cannot be read: ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  }
}

async function ask(dialogOptions: CounterDialog, parent: BrowserWindow | null): Promise<number> {
  const options = { ...dialogOptions, buttons: [...dialogOptions.buttons] };
  const answer =
    parent && !parent.isDestroyed()
      ? await dialog.showMessageBox(parent, options)
      : await dialog.showMessageBox(options);
  return answer.response;
}

/**
 * Forgets the hub (the saved setting, and the counter's token in the hub page's storage) and
 * starts this PC again as a normal till.
 */
async function leaveCounterMode(hubOrigin: string | null): Promise<void> {
  rmSync(counterModePath(), { force: true });
  if (hubOrigin) {
    await session.defaultSession.clearStorageData({ origin: hubOrigin }).catch(() => undefined);
  }
  app.relaunch({ args: argvWithoutCounter(process.argv.slice(1)) });
  app.exit(0);
}

export type CounterStart =
  | { readonly kind: 'till' }
  | { readonly kind: 'counter'; readonly mode: CounterMode }
  | {
      readonly kind: 'refused';
      readonly error: CounterModeError;
      readonly savedFileExists: boolean;
    };

/** How this run starts: from `--counter <link>` or the saved setting (see counterModeFrom). */
export function counterStart(argv: readonly string[]): CounterStart {
  let saved: string | null = null;
  try {
    saved = readCounterModeFile();
    const mode = counterModeFrom(argv, saved);
    return mode ? { kind: 'counter', mode } : { kind: 'till' };
  } catch (error) {
    if (!(error instanceof CounterModeError)) throw error;
    const savedFileExists = saved !== null || error.code === 'COUNTER_MODE_FILE_DAMAGED';
    return { kind: 'refused', error, savedFileExists };
  }
}

/** The link or the saved setting cannot be used: say why, then quit (or leave counter mode). */
export function refuseCounterStart(error: CounterModeError, savedFileExists: boolean): void {
  void app.whenReady().then(async () => {
    const response = await ask(counterStartFailedDialog(error.message, savedFileExists), null);
    if (savedFileExists && response === START_FAILED_LEAVE) await leaveCounterMode(null);
    else app.quit();
  });
}

export function startCounterMode(mode: CounterMode): void {
  const { hubOrigin } = mode;
  let window: BrowserWindow | null = null;
  /** Where a reload goes: the pairing link until the hub has paired us, then the hub's address. */
  let startUrl = mode.startUrl;
  let failedLoads = 0;
  let retry: ReturnType<typeof setTimeout> | null = null;
  /** A certificate that is not the pinned one was offered: nothing is retried, once is enough to say. */
  let pinRefused = false;

  app.on('second-instance', () => {
    if (!window || window.isDestroyed()) return;
    if (window.isMinimized()) window.restore();
    window.focus();
  });

  app.on('web-contents-created', (_event, contents) => {
    contents.setWindowOpenHandler(() => ({ action: 'deny' }));
    contents.on('will-navigate', (event, url) => {
      if (!isHubUrl(url, hubOrigin)) event.preventDefault();
    });
    contents.on('will-redirect', (event, url) => {
      if (!isHubUrl(url, hubOrigin)) event.preventDefault();
    });
    contents.on('will-attach-webview', (event) => event.preventDefault());
  });

  // A counter holds no money and watches no sale (the hub does): closing the window quits.
  app.on('window-all-closed', () => app.quit());

  function load(): void {
    if (!window || window.isDestroyed()) return;
    // A failure is handled in did-fail-load; the promise's rejection says the same again.
    window.loadURL(startUrl).catch(() => undefined);
  }

  async function refusePin(presented: string): Promise<void> {
    if (pinRefused) return;
    pinRefused = true;
    if (retry) clearTimeout(retry);
    const response = await ask(pinMismatchDialog({ pinned: mode, presented }), window);
    if (response === PIN_MISMATCH_LEAVE) await leaveCounterMode(hubOrigin);
    else app.quit();
  }

  async function askToLeave(): Promise<void> {
    if ((await ask(leaveCounterModeDialog(hubOrigin), window)) !== LEAVE_CONFIRMED) return;
    await leaveCounterMode(hubOrigin);
  }

  void app.whenReady().then(() => {
    const ses = session.defaultSession;
    ses.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
    // The pin: at the hub's address only the certificate whose SHA-256 the link carried is
    // trusted, whoever signed it; anywhere else Chromium's own checks stand.
    ses.setCertificateVerifyProc((request, callback) => {
      const verdict = certificateVerdict({
        hostname: request.hostname,
        certFingerprint: request.certificate.fingerprint,
        pinned: mode,
      });
      callback(VERIFY_PROC_RESULT[verdict]);
      if (verdict === 'refuse') void refusePin(request.certificate.fingerprint);
    });
    if (mode.pairing) {
      // Saved only once the hub said yes: a used or expired link leaves this PC as it was.
      ses.webRequest.onCompleted((details) => {
        if (!pairingCompleted(details, hubOrigin)) return;
        startUrl = `${hubOrigin}/`;
        try {
          writeFileAtomic(counterModePath(), counterModeFileText(mode), PRIVATE_FILE_MODE);
        } catch (error) {
          // This run sells on; only the next start would need the link again.
          void ask(
            counterNotSavedDialog(error instanceof Error ? error.message : String(error)),
            window,
          );
        }
      });
    }
    installCounterMenu({
      reload: () => {
        failedLoads = 0;
        load();
      },
      leaveCounterMode: () => void askToLeave(),
    });

    const opened = createCounterWindow(COUNTER_WINDOW_TITLE);
    window = opened;
    opened.webContents.on('did-finish-load', () => {
      failedLoads = 0;
    });
    opened.webContents.on('did-fail-load', (_event, errorCode, _description, _url, isMainFrame) => {
      if (!isMainFrame) return;
      // ready-to-show never comes for a page that did not load: show the window anyway.
      if (!opened.isVisible()) opened.show();
      if (pinRefused || loadFailureAction(errorCode) !== 'retry') return;
      const delay = loadRetryDelay(failedLoads++);
      opened.setTitle(unreachableTitle(hubOrigin, delay));
      if (retry) clearTimeout(retry);
      retry = setTimeout(() => {
        retry = null;
        load();
      }, delay);
    });
    opened.on('closed', () => {
      if (retry) clearTimeout(retry);
      window = null;
    });
    load();
  });
}
