import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runRoomStoreContract } from './contract';
import { createSqliteStore } from './sqlite-store';

runRoomStoreContract(
  'sqlite',
  async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'chipless-sqlite-'));
    const store = createSqliteStore({ dataDir });
    return {
      store,
      openAnother: async () => createSqliteStore({ dataDir }),
      cleanup: async () => {
        await store.close();
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  },
  { exclusive: true },
);
