import type { PdfExportView } from '#shared/printing';

/** The file's bytes from the bridge's base64 (JSON carries no binary). */
export function pdfBytes(view: Pick<PdfExportView, 'base64'>): Uint8Array<ArrayBuffer> {
  const binary = atob(view.base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/**
 * Saves the report PDF made in main as a download (the browser's downloads folder; the desktop
 * app asks where). The bytes are saved as they are: a text download would re-encode them.
 */
export function savePdfFile(view: PdfExportView): void {
  const url = URL.createObjectURL(new Blob([pdfBytes(view)], { type: 'application/pdf' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = view.filename;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  // Revoke later: some browsers start the download only after the click handler returns.
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
