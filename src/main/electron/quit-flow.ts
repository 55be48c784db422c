/**
 * Quitting the till: the quit guard's question before a quit (or an update's install) that
 * would leave sales unwatched, asked once at a time, and the OS ending the session, which is
 * not asked about. The decisions are src/main/desktop/quit-guard.ts; this carries them out.
 */
import { app, dialog, type BrowserWindow } from 'electron';
import { onQuitRequest, quitConfirmed, type QuitDialog } from '#main/desktop/quit-guard';
import type { TillSnapshot } from '#main/desktop/till-snapshot';

export interface QuitFlowDeps {
  readonly till: () => TillSnapshot | null;
  readonly mainWindow: () => BrowserWindow | null;
  readonly showMainWindow: () => void;
}

export interface QuitFlow {
  /** Windows may close for real: a quit is under way. */
  quitting(): boolean;
  /** Asks first when sales are open, then runs `install` (which closes the windows itself). */
  installUpdate(install: () => void): Promise<void>;
  /** The OS is shutting down or ending the session. */
  readonly sessionEnds: () => void;
  close(): void;
}

export function startQuitFlow(deps: QuitFlowDeps): QuitFlow {
  let quitting = false;
  /** "Quit anyway" was answered, or the OS is ending the session. */
  let confirmed = false;
  let asking = false;

  async function ask(question: QuitDialog): Promise<boolean> {
    // The cashier should see the open sales the question is about.
    deps.showMainWindow();
    const window = deps.mainWindow();
    const options = { ...question, buttons: [...question.buttons] };
    const answer =
      window && !window.isDestroyed()
        ? await dialog.showMessageBox(window, options)
        : await dialog.showMessageBox(options);
    return quitConfirmed(answer.response);
  }

  function beforeQuit(event: Electron.Event): void {
    if (quitting) return;
    const decision = onQuitRequest({ till: deps.till(), confirmed, purpose: 'quit' });
    if (decision.kind === 'quit') {
      quitting = true;
      return;
    }
    event.preventDefault();
    if (asking) return;
    asking = true;
    void ask(decision.dialog)
      .then((yes) => {
        if (!yes) return;
        confirmed = true;
        app.quit();
      })
      .finally(() => {
        asking = false;
      });
  }
  app.on('before-quit', beforeQuit);

  function sessionEnds(): void {
    confirmed = true;
    quitting = true;
  }

  return {
    quitting: () => quitting,
    async installUpdate(install) {
      const decision = onQuitRequest({ till: deps.till(), confirmed, purpose: 'update' });
      if (decision.kind === 'ask' && !(await ask(decision.dialog))) return;
      confirmed = true;
      quitting = true;
      // quitAndInstall closes the windows before app's before-quit: they must not hide.
      install();
    },
    sessionEnds,
    close: () => app.off('before-quit', beforeQuit),
  };
}
