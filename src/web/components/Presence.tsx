import { common } from '../texts';

/** The online/offline dot of a player, with the word for screen readers. */
export function Presence({ online }: { online: boolean }) {
  return (
    <span className={online ? 'presence on' : 'presence off'} title={online ? common.online : common.offline}>
      <span className="sr-only">{online ? common.online : common.offline}</span>
    </span>
  );
}
