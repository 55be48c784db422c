import { useEffect, useState } from 'react';

/** Builds a PNG data: URL; qrcode is loaded only when a QR code is first shown. */
export async function makeQrDataUrl(text: string): Promise<string> {
  const qrcode = await import('qrcode');
  return qrcode.toDataURL(text, { errorCorrectionLevel: 'M', margin: 2, width: 320 });
}

/**
 * A QR code of some text: by default the account details, as a convenience for copying them into
 * a banking app. It is not an NQR payment code, so nothing here says "scan to pay".
 */
export function QrImage({
  text,
  className = '',
  label = 'Account details (QR)',
  testId = 'qr-code',
}: {
  readonly text: string;
  readonly className?: string;
  /** The image's alternative text and caption. */
  readonly label?: string;
  readonly testId?: string;
}) {
  // The image made for some text, or null when it could not be made; another text's is not shown.
  const [made, setMade] = useState<{ readonly text: string; readonly url: string | null } | null>(
    null,
  );
  const current = made?.text === text ? made : null;

  useEffect(() => {
    let live = true;
    makeQrDataUrl(text).then(
      (url) => {
        if (live) setMade({ text, url });
      },
      () => {
        if (live) setMade({ text, url: null });
      },
    );
    return () => {
      live = false;
    };
  }, [text]);

  return (
    <figure className={`qr ${className}`.trim()}>
      {current?.url ? (
        <img src={current.url} alt={label} data-testid={testId} width={220} height={220} />
      ) : (
        <div className="qr-placeholder" aria-hidden="true">
          {current ? 'QR unavailable' : '…'}
        </div>
      )}
      <figcaption>{label}</figcaption>
    </figure>
  );
}
