import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from 'react';

/** Which parts of Settings hold edits not saved yet, and a way to ask before leaving them. */
interface UnsavedRegistry {
  mark(key: string, dirty: boolean): void;
  /** Runs `leave` at once when nothing is unsaved, else after the owner says so. */
  attempt(leave: () => void): void;
}

const UnsavedContext = createContext<UnsavedRegistry | null>(null);

/** A section's handle: mark(true) on an edit, mark(false) once saved (and when it goes away). */
export function useUnsaved(key: string): { mark(dirty: boolean): void } {
  const registry = useContext(UnsavedContext);
  useEffect(() => () => registry?.mark(key, false), [registry, key]);
  return useMemo(() => ({ mark: (dirty: boolean) => registry?.mark(key, dirty) }), [registry, key]);
}

/** Leaving a page of Settings: at once, or after asking when edits are unsaved. */
export function useLeaveGuard(): (leave: () => void) => void {
  const registry = useContext(UnsavedContext);
  return useCallback(
    (leave: () => void) => (registry ? registry.attempt(leave) : leave()),
    [registry],
  );
}

/**
 * Holds the registry for the Settings screen and guards leaving it: another Settings page, another
 * screen through a link, or closing the page (the browser's own question).
 */
export function UnsavedProvider({ children }: { readonly children?: ReactNode }) {
  const dirty = useRef(new Set<string>());
  const [pending, setPending] = useState<(() => void) | null>(null);
  const registry = useMemo<UnsavedRegistry>(
    () => ({
      mark(key, isDirty) {
        if (isDirty) dirty.current.add(key);
        else dirty.current.delete(key);
      },
      attempt(leave) {
        if (dirty.current.size === 0) leave();
        else setPending(() => leave);
      },
    }),
    [],
  );

  useEffect(() => {
    function onClick(event: MouseEvent): void {
      const link = (event.target as Element | null)?.closest?.('a[href^="#/"]');
      const href = link?.getAttribute('href');
      if (!href || href.startsWith('#/settings') || dirty.current.size === 0) return;
      event.preventDefault();
      setPending(() => () => {
        window.location.hash = href;
      });
    }
    function onUnload(event: BeforeUnloadEvent): void {
      if (dirty.current.size > 0) event.preventDefault();
    }
    document.addEventListener('click', onClick, true);
    window.addEventListener('beforeunload', onUnload);
    return () => {
      document.removeEventListener('click', onClick, true);
      window.removeEventListener('beforeunload', onUnload);
    };
  }, []);

  const dialog = pending ? (
    <div className="unsaved-question" role="alertdialog" aria-labelledby="unsaved-heading">
      <p id="unsaved-heading">You have changes that are not saved. Leave them?</p>
      <button type="button" className="button primary" autoFocus onClick={() => setPending(null)}>
        Stay and save
      </button>
      <button
        type="button"
        className="button"
        onClick={() => {
          const leave = pending;
          dirty.current.clear();
          setPending(null);
          leave();
        }}
      >
        Leave without saving
      </button>
    </div>
  ) : null;

  return (
    <UnsavedContext.Provider value={registry}>
      {dialog}
      {children}
    </UnsavedContext.Provider>
  );
}
