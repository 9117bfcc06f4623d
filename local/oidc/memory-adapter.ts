/**
 * oidc-provider's storage for `npm start`: in memory, like its own development adapter, but
 * bounded and said plainly (its own prints a warning at every start). A restart signs admins
 * out; on a laptop that is fine. Entries expire on read, and the oldest go once it is full.
 */
import type { Adapter, AdapterPayload } from 'oidc-provider';

const MAX_ENTRIES = 10_000;

interface Entry {
  payload: AdapterPayload;
  expiresAt: number;
}

/** One store shared by every model (Session, Grant, AuthorizationCode, ...), keyed by model and id. */
export const memoryAdapter = (now: () => number = Date.now): (new (name: string) => Adapter) => {
  const entries = new Map<string, Entry>();
  const byUid = new Map<string, string>();
  const live = (key: string): Entry | undefined => {
    const entry = entries.get(key);
    if (entry && entry.expiresAt <= now()) entries.delete(key);
    return entry && entry.expiresAt > now() ? entry : undefined;
  };
  return class MemoryAdapter implements Adapter {
    constructor(private readonly name: string) {}

    private key(id: string): string {
      return `${this.name}:${id}`;
    }

    async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
      if (entries.size >= MAX_ENTRIES) entries.delete(entries.keys().next().value as string);
      entries.set(this.key(id), { payload, expiresAt: now() + expiresIn * 1000 });
      if (payload.uid) {
        // Bounded like the entries: a uid whose entry is gone finds nothing anyway.
        if (byUid.size >= MAX_ENTRIES) byUid.delete(byUid.keys().next().value as string);
        byUid.set(`${this.name}:${payload.uid}`, id);
      }
    }

    async find(id: string): Promise<AdapterPayload | undefined> {
      return live(this.key(id))?.payload;
    }

    async findByUid(uid: string): Promise<AdapterPayload | undefined> {
      const id = byUid.get(`${this.name}:${uid}`);
      return id ? this.find(id) : undefined;
    }

    async findByUserCode(): Promise<AdapterPayload | undefined> {
      return undefined; // no device flow
    }

    async consume(id: string): Promise<void> {
      const entry = live(this.key(id));
      if (entry) entry.payload.consumed = Math.floor(now() / 1000);
    }

    async destroy(id: string): Promise<void> {
      entries.delete(this.key(id));
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      for (const [key, entry] of entries) if (entry.payload.grantId === grantId) entries.delete(key);
    }
  };
};
