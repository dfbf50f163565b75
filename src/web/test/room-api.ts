import type { RoomApi } from '../net/use-room';

/** A RoomApi for screen tests: online, nothing pending, every request refused with 'x' unless given. */
export function roomApi(overrides: Partial<RoomApi>): RoomApi {
  return {
    connection: 'online',
    snapshot: null,
    playerId: 'ben',
    seatRoom: null,
    resuming: false,
    notice: null,
    createRoom: async () => ({ ok: false, error: 'x' }),
    joinRoom: async () => ({ ok: false, error: 'x' }),
    send: async () => ({ ok: false, error: 'x' }),
    seatLink: async () => ({ ok: false, error: 'x' }),
    claimSeat: async () => ({ ok: false, error: 'x' }),
    leave: async () => ({ ok: true, data: null }),
    handBack: () => {},
    goHome: () => {},
    lastResults: null,
    openLastResults: () => {},
    dismissNotice: () => {},
    ...overrides,
  };
}
