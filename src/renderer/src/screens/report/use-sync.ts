import { useState } from 'react';
import { countOf } from '#shared/plural';
import { rowsCouldNotBeRead } from '#shared/report-words';
import type { SyncProgressView, SyncRunView } from '#shared/views';
import { useBridgeEvent } from '../../bridge-context';
import { failureOf, useBridgeCall } from '../../hooks/use-bridge-call';

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
    ? `Sync complete: ${countOf(run.collected, 'transaction')} checked, ${run.inserted} new.${unreadable}`
    : run.status === 'failed'
      ? `Sync did not finish: ${run.error ?? 'the bank stopped answering'}. Press "Sync" to continue where it stopped.`
      : 'Sync stopped before the end. Press "Sync" to continue where it stopped.';
}

/**
 * The sync with the bank's listing: started here or elsewhere (main reports its progress to
 * every page), and `onFinished` once it ends, so the report is read again.
 */
export function useSync(onFinished: () => void): Sync {
  const starting = useBridgeCall<SyncRunView>();
  const cancelling = useBridgeCall<{ readonly cancelled: boolean }>();
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
    const answer = await starting.run((bridge) =>
      bridge.syncTransactions({ mode: fullSync ? 'full' : 'incremental' }),
    );
    if (!answer) return;
    if (!answer.ok) {
      setSyncing(false);
      setMessage(failureOf(answer.error).words);
      return;
    }
    if (answer.value.status !== 'running') finish(answer.value);
  }

  async function cancel(): Promise<void> {
    const answer = await cancelling.run((bridge) => bridge.cancelSync({}));
    if (answer && !answer.ok) setMessage(failureOf(answer.error).words);
  }

  useBridgeEvent('sync-progress', (next) => {
    setSyncing(true);
    setProgress(next);
  });
  useBridgeEvent('sync-finished', finish);

  return { syncing, progress, message, fullSync, setFullSync, start, cancel };
}
