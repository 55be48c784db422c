import { useState } from 'react';
import type { WindowApi } from '#shared/bridge/contract';
import { rowsCouldNotBeRead } from '#shared/report-words';
import type { SyncProgressView, SyncRunView } from '#shared/views';
import { useBridgeEvent } from '../../bridge-context';
import { cashierMessage } from '../../errors';

export interface Sync {
  readonly syncing: boolean;
  /** Null until main reports how far a running sync is. */
  readonly progress: SyncProgressView | null;
  readonly message: string | null;
  /** Every page, not only what is new since the last sync. */
  readonly fullSync: boolean;
  readonly setFullSync: (full: boolean) => void;
  readonly start: () => Promise<void>;
  readonly cancel: () => Promise<void>;
}

function finishedWords(run: SyncRunView): string {
  const unreadable =
    run.unreadable > 0
      ? ` ${rowsCouldNotBeRead(run.unreadable)} (kept; see the exceptions below).`
      : '';
  return run.status === 'complete'
    ? `Sync complete: ${run.collected} transactions checked, ${run.inserted} new.${unreadable}`
    : run.status === 'failed'
      ? `Sync did not finish: ${run.error ?? 'the bank stopped answering'}. Press Sync to continue where it stopped.`
      : 'Sync stopped before the end. Press Sync to continue where it stopped.';
}

/**
 * The sync with the bank's listing: started here or elsewhere (main reports its progress to
 * every page), and `onFinished` once it ends, so the report is read again.
 */
export function useSync(bridge: WindowApi, onFinished: () => void): Sync {
  const [syncing, setSyncing] = useState(false);
  const [fullSync, setFullSync] = useState(false);
  const [progress, setProgress] = useState<SyncProgressView | null>(null);
  const [message, setMessage] = useState<string | null>(null);

  function finish(run: SyncRunView): void {
    setSyncing(false);
    setProgress(null);
    setMessage(finishedWords(run));
    onFinished();
  }

  async function start(): Promise<void> {
    setSyncing(true);
    setProgress(null);
    setMessage(null);
    const result = await bridge.syncTransactions({ mode: fullSync ? 'full' : 'incremental' });
    if (!result.ok) {
      setSyncing(false);
      setMessage(cashierMessage(result.error));
      return;
    }
    if (result.value.status !== 'running') finish(result.value);
  }

  async function cancel(): Promise<void> {
    const result = await bridge.cancelSync({});
    if (!result.ok) setMessage(cashierMessage(result.error));
  }

  useBridgeEvent('sync-progress', (next) => {
    setSyncing(true);
    setProgress(next);
  });
  useBridgeEvent('sync-finished', finish);

  return { syncing, progress, message, fullSync, setFullSync, start, cancel };
}
