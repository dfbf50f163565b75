import { Component, lazy, type ReactNode, Suspense } from 'react';

const loadQrCode = () => lazy(() => import('./QrCode'));
let QrCode = loadQrCode();

const qrPlaceholder = <div className="qr qr-placeholder" />;

/**
 * The QR code's file fetched the first time a code shows: one that cannot load (the table's "Room
 * ABCDE" tapped offline on a page reloaded at the table, so never through the lobby; or a file a new
 * deploy replaced, new-build.ts) leaves the placeholder, with the link beside it, rather than the whole
 * table's error screen (ErrorBoundary.tsx, around the app). React.lazy keeps a failed import for good,
 * so the next code shown asks for the file again.
 */
class QrBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override componentDidCatch() {
    QrCode = loadQrCode();
  }
  override render() {
    return this.state.failed ? qrPlaceholder : this.props.children;
  }
}

/**
 * The QR code of `text` (QrCode.tsx), loaded apart from the screens that show it: the room's invite
 * (RoomInvite.tsx) and the host's seat link (SeatLinkModal.tsx). A placeholder while it loads, and
 * for good when its file cannot (QrBoundary).
 */
export function LazyQrCode({ text, label }: { text: string; label: string }) {
  return (
    <QrBoundary>
      <Suspense fallback={qrPlaceholder}>
        <QrCode text={text} label={label} />
      </Suspense>
    </QrBoundary>
  );
}
