/**
 * Runs a built preload as Electron runs a sandboxed one: CommonJS code in its own context whose
 * `require` offers 'electron' alone (Electron's sandbox adds 'events', 'timers' and 'url'; ours
 * needs none). Electron is the faked edge: contextBridge records what is exposed, ipcRenderer
 * records what is invoked and which listeners are on.
 */
import { runInNewContext } from 'node:vm';

type Listener = (event: unknown, message: unknown) => void;

export interface PreloadRun {
  /** contextBridge.exposeInMainWorld's calls, by key. */
  readonly exposed: ReadonlyMap<string, unknown>;
  /** ipcRenderer.invoke's calls, in order. */
  readonly invoked: readonly { readonly channel: string; readonly input: unknown }[];
  /** ipcRenderer's listeners now, by channel. */
  readonly listeners: ReadonlyMap<string, ReadonlySet<Listener>>;
}

export function runSandboxedPreload(code: string, fileName: string): PreloadRun {
  const exposed = new Map<string, unknown>();
  const invoked: { channel: string; input: unknown }[] = [];
  const listeners = new Map<string, Set<Listener>>();
  const electron = {
    contextBridge: {
      exposeInMainWorld(key: string, api: unknown) {
        exposed.set(key, api);
      },
    },
    ipcRenderer: {
      invoke(channel: string, input: unknown) {
        invoked.push({ channel, input });
        return Promise.resolve({ ok: true, value: null });
      },
      on(channel: string, listener: Listener) {
        const set = listeners.get(channel) ?? new Set<Listener>();
        set.add(listener);
        listeners.set(channel, set);
      },
      removeListener(channel: string, listener: Listener) {
        listeners.get(channel)?.delete(listener);
      },
    },
  };
  const require = (name: string): unknown => {
    if (name === 'electron') return electron;
    throw new Error(`a sandboxed preload cannot require '${name}'`);
  };
  const module = { exports: {} };
  const wrapped = runInNewContext(
    `(function (exports, require, module) {\n${code}\n})`,
    {},
    {
      filename: fileName,
    },
  ) as (exports: unknown, require: (name: string) => unknown, module: unknown) => void;
  wrapped(module.exports, require, module);
  return { exposed, invoked, listeners };
}
