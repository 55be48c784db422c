import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createFakeBridge } from '#support/renderer/fake-bridge';
import { fail, ok, zReport } from '#support/renderer/fixtures';
import { renderApp } from '#support/renderer/render-app';
import { pdfBytes } from './save-pdf';

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

/** Bytes no text encoding survives: a PDF's binary comment line and a NUL. */
const PDF_BYTES = Uint8Array.from([
  0x25, 0x50, 0x44, 0x46, 0x2d, 0x31, 0x2e, 0x33, 0x0a, 0x25, 0xff, 0xff, 0xff, 0xff, 0x00, 0x0a,
]);
const PDF_BASE64 = btoa(String.fromCharCode(...PDF_BYTES));

function captureDownloads() {
  const blobs: Blob[] = [];
  const createObjectURL = vi.fn((blob: Blob) => {
    blobs.push(blob);
    return 'blob:report-pdf';
  });
  vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() }));
  const downloads: string[] = [];
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
    this: HTMLAnchorElement,
  ) {
    downloads.push(`${this.download} ${this.href}`);
  });
  return { blobs, downloads };
}

function bytesOf(blob: Blob): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => {
      const result = reader.result;
      if (result instanceof ArrayBuffer) resolve(new Uint8Array(result));
      else reject(new Error('not an ArrayBuffer'));
    };
    reader.onerror = () => reject(reader.error ?? new Error('read failed'));
    reader.readAsArrayBuffer(blob);
  });
}

describe('Save as PDF', () => {
  it('downloads the PDF made in main, byte for byte, next to Export CSV and Print report', async () => {
    const user = userEvent.setup();
    const bridge = createFakeBridge();
    bridge.getZReport.mockImplementation(() => ok(zReport()));
    bridge.listTransactions.mockImplementation(() => ok({ rows: [], total: 0 }));
    bridge.exportPdf.mockImplementation(() =>
      ok({ filename: 'transfer-till-2026-11-22.pdf', base64: PDF_BASE64, pages: 2 }),
    );
    const { blobs, downloads } = captureDownloads();
    renderApp(bridge, '#/report');
    await screen.findByTestId('report-success-count');
    expect(screen.getByRole('button', { name: 'Export CSV' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Print report' })).toBeTruthy();

    // The day picked on the screen is the day of the file.
    fireEvent.change(screen.getByLabelText('Day'), { target: { value: '2026-11-21' } });
    await user.click(screen.getByRole('button', { name: 'Save as PDF' }));
    expect(bridge.exportPdf).toHaveBeenLastCalledWith({ day: '2026-11-21' });
    await waitFor(() =>
      expect(downloads).toEqual(['transfer-till-2026-11-22.pdf blob:report-pdf']),
    );
    expect(blobs[0]?.type).toBe('application/pdf');
    expect([...(await bytesOf(blobs[0]!))]).toEqual([...PDF_BYTES]);
    expect(screen.getByText('Saved transfer-till-2026-11-22.pdf (2 pages).')).toBeTruthy();
  });

  it('says in words when the PDF cannot be made, and downloads nothing', async () => {
    const user = userEvent.setup();
    const bridge = createFakeBridge();
    bridge.getZReport.mockImplementation(() => ok(zReport()));
    bridge.listTransactions.mockImplementation(() => ok({ rows: [], total: 0 }));
    bridge.exportPdf.mockImplementation(() =>
      fail('PDF_FONT_MISSING', 'The PDF font file is missing. Reinstall the app.'),
    );
    const { downloads } = captureDownloads();
    renderApp(bridge, '#/report');
    await user.click(await screen.findByRole('button', { name: 'Save as PDF' }));
    expect(
      await screen.findByText('The PDF font file is missing. Reinstall the app.'),
    ).toBeTruthy();
    expect(downloads).toEqual([]);
  });

  it('decodes base64 to the exact bytes', () => {
    expect([...pdfBytes({ base64: PDF_BASE64 })]).toEqual([...PDF_BYTES]);
    expect(pdfBytes({ base64: '' })).toHaveLength(0);
  });
});
