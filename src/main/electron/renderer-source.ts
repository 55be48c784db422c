import { pathToFileURL } from 'node:url';
import type { TrustedOrigins } from '#main/security/trusted-sender';

/** Where the till's windows get their page, and what follows from it. */
export interface RendererSource {
  /** What a window loads: the built index.html, or the electron-vite dev server. */
  readonly load:
    | { readonly kind: 'file'; readonly path: string }
    | { readonly kind: 'url'; readonly url: string };
  /** The development CSP (React's inline refresh preamble, the HMR socket), else the strict one. */
  readonly devCsp: boolean;
  /** The only pages that may navigate in the app's windows and call IPC. */
  readonly trusted: TrustedOrigins;
}

/**
 * The one reading of `ELECTRON_RENDERER_URL` (set by `electron-vite dev`): an installed app
 * ignores it, so that nobody who can set a variable in its environment makes it load their page
 * with the preload, trust that page for IPC and relax the CSP. Unpackaged, the dev server is used
 * when the variable names one.
 */
export function rendererSource(input: {
  readonly isPackaged: boolean;
  readonly rendererUrl: string | undefined;
  /** The built renderer's index.html (absolute path). */
  readonly rendererIndex: string;
}): RendererSource {
  const rendererFile = pathToFileURL(input.rendererIndex).href;
  const devServerUrl = input.isPackaged ? undefined : input.rendererUrl || undefined;
  if (devServerUrl === undefined) {
    return {
      load: { kind: 'file', path: input.rendererIndex },
      devCsp: false,
      trusted: { rendererFile },
    };
  }
  return {
    load: { kind: 'url', url: devServerUrl },
    devCsp: true,
    trusted: { rendererFile, devServerUrl },
  };
}
