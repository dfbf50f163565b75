import { useState } from 'react';
import { copyText } from './copy';

interface Props {
  /** What Copy copies and Share shares: a link (`url`) or text (`text`). */
  content: { url: string } | { text: string };
  /** The share sheet's title. */
  title: string;
  labels: { copy: string; copied: string; share: string; byHand: string };
}

/**
 * Copy (every origin: copyText falls back to a selection copy where the Clipboard API is missing, as on
 * plain http on a LAN address) and Share (only where the Web Share API exists, secure contexts; a
 * cancelled share sheet is no error). The lobby's join link, the game over's results.
 */
export function ShareButtons({ content, title, labels }: Props) {
  const [copied, setCopied] = useState<boolean | null>(null);
  const canShare = typeof navigator !== 'undefined' && typeof navigator.share === 'function';
  const value = 'url' in content ? content.url : content.text;
  return (
    <>
      <div className="button-row compact">
        <button
          type="button"
          className="button secondary small"
          onClick={() => {
            void copyText(value).then((ok) => {
              setCopied(ok);
              if (ok) setTimeout(() => setCopied(null), 2000);
            });
          }}
        >
          <span aria-live="polite">{copied ? labels.copied : labels.copy}</span>
        </button>
        {canShare ? (
          <button
            type="button"
            className="button secondary small"
            onClick={() => {
              navigator.share({ title, ...content }).catch(() => {});
            }}
          >
            {labels.share}
          </button>
        ) : null}
      </div>
      {copied === false ? (
        <p className="muted" role="status">
          {labels.byHand}
        </p>
      ) : null}
    </>
  );
}
