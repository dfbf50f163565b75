import { useEffect, useRef, useState } from 'react';
import { isHttpUrl, isSitePath, PLAIN_EMAIL } from '../../shared/links';
import type { Ack } from '../../shared/protocol';
import { useArrivalFocus } from '../components/focus';
import { InfoIcon } from '../components/icons';
import { Modal } from '../components/Modal';
import { useAppConfig, useHandsDealt } from '../net/http';
import { Link } from '../router';
import { common, landing, menu } from '../texts';
import { CreateRoomModal, JoinRoomModal } from './RoomForms';

export interface LandingProps {
  onCreate: (name: string, startingChips: number) => Promise<Ack<unknown>>;
  onJoin: (roomCode: string, name: string, startingChips: number) => Promise<Ack<unknown>>;
  /** A code from a join link (/?join=CODE): opens the join form with it filled in. */
  joinCode?: string | null;
  notice?: string | null;
  onDismissNotice?: () => void;
  /** The join form opened from a join link was closed: the link has done its job. */
  onJoinLinkClosed?: () => void;
  /** Start a Game or Join a Game was opened: the room's screens can start loading. */
  onFormOpen?: () => void;
  /** A game this phone left whose results can be opened again (use-room.ts lastResults). */
  lastResults?: string | null;
  onOpenLastResults?: () => void;
}

type Open = 'none' | 'create' | 'join' | 'menu';

/** Where the support link goes before (or without) the server's config: the About page's support section. */
const DEFAULT_SUPPORT_URL = '/about#support';

/**
 * The support link as it may be shown: a path of this site, or an http(s) URL (another site). Anything
 * else (`javascript:`, `data:`, a relative name) is not a link the server should have sent: not shown.
 */
function supportLink(url: string): { href: string; external: boolean } | null {
  if (isSitePath(url)) return { href: url, external: false };
  // A protocol-relative `//host` (which the server refuses at start) is another site too.
  if (isHttpUrl(url) || url.startsWith('//')) return { href: url, external: true };
  return null;
}

/** The landing screen: title, tagline, the two big actions, the counter and the info menu. */
export function Landing({
  onCreate,
  onJoin,
  joinCode,
  notice,
  onDismissNotice,
  onJoinLinkClosed,
  lastResults = null,
  onOpenLastResults,
  onFormOpen,
}: LandingProps) {
  const [open, setOpenState] = useState<Open>(joinCode ? 'join' : 'none');
  const setOpen = (next: Open) => {
    if (next === 'create' || next === 'join') onFormOpen?.();
    setOpenState(next);
  };
  // A join link opens the join form at once.
  // biome-ignore lint/correctness/useExhaustiveDependencies: on mount only.
  useEffect(() => {
    if (joinCode) onFormOpen?.();
  }, []);
  const noticeRef = useRef<HTMLDivElement>(null);
  useArrivalFocus(noticeRef);
  const hands = useHandsDealt();
  const config = useAppConfig();
  // The landing always has a support link (SPEC section 2): the server's default, the About page's
  // support section, until the config is read, and when the read fails.
  const support = supportLink(config ? config.supportUrl : DEFAULT_SUPPORT_URL);
  const contactEmail = config && PLAIN_EMAIL.test(config.contactEmail) ? config.contactEmail : null;
  const close = () => {
    if (open === 'join' && joinCode) onJoinLinkClosed?.();
    setOpen('none');
  };

  return (
    <main className="landing">
      <div className="landing-top">
        <button
          type="button"
          className="icon-button"
          aria-label={landing.info}
          aria-haspopup="dialog"
          onClick={() => setOpen('menu')}
        >
          <InfoIcon />
        </button>
      </div>
      {notice ? (
        // Focused when the landing opens with it (focus.ts): a phone sent home ("You were removed from
        // the game.") had focus nowhere and a screen reader said nothing of why.
        <div className="notice" role="status" ref={noticeRef} tabIndex={-1}>
          <p>{notice}</p>
          <button type="button" className="button ghost small" onClick={onDismissNotice}>
            {common.dismiss}
          </button>
        </div>
      ) : null}
      <div className="landing-hero">
        <div className="logo-chip" aria-hidden="true" />
        <h1 className="landing-title">{landing.title}</h1>
        <p className="tagline">{landing.tagline}</p>
      </div>
      <div className="landing-actions">
        <button type="button" className="button primary block large" onClick={() => setOpen('create')}>
          {landing.start}
        </button>
        <button type="button" className="button secondary block large" onClick={() => setOpen('join')}>
          {landing.join}
        </button>
        {lastResults && onOpenLastResults ? (
          <button type="button" className="button ghost block" onClick={onOpenLastResults}>
            {landing.lastResults}
          </button>
        ) : null}
      </div>
      <footer className="landing-footer">
        <p className="hands-dealt">{landing.handsDealt(String(hands))}</p>
        <p className="landing-links">
          <Link to="/about">{landing.about}</Link>
          <Link to="/faq">{landing.faq}</Link>
          {support ? (
            <a
              href={support.href}
              {...(support.external ? { target: '_blank', rel: 'noopener noreferrer' } : {})}
            >
              {landing.support}
            </a>
          ) : null}
        </p>
      </footer>

      {open === 'create' ? <CreateRoomModal onClose={close} onCreate={onCreate} /> : null}
      {open === 'join' ? (
        <JoinRoomModal initialCode={joinCode ?? ''} onClose={close} onJoin={onJoin} />
      ) : null}
      {open === 'menu' ? (
        <Modal title={menu.title} onClose={close}>
          <section className="menu-section">
            <h3>{menu.howToPlay}</h3>
            <ol className="steps">
              {menu.steps.map((step) => (
                <li key={step}>{step}</li>
              ))}
            </ol>
          </section>
          <section className="menu-section">
            <h3>{menu.faq}</h3>
            <Link className="button secondary block" to="/faq">
              {menu.faq}
            </Link>
          </section>
          {/* No address (not loaded yet, unreadable, or CONTACT_EMAIL="" to hide it): no section, rather
              than "Write to us:" followed by nothing. */}
          {contactEmail ? (
            <section className="menu-section">
              <h3>{menu.contact}</h3>
              <p>{menu.contactText}</p>
              <p>
                <a className="email" href={`mailto:${contactEmail}`}>
                  {contactEmail}
                </a>
              </p>
            </section>
          ) : null}
        </Modal>
      ) : null}
    </main>
  );
}
