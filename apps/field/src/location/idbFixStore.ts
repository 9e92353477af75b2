import type { Fix } from './fix';
import type { FixStore, StoredFix } from './fixStore';

const DATABASE = 'intercom-field';
const STORE = 'fixes';

function done<T>(request: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error ?? new Error('IndexedDB request failed'));
  });
}

function committed(transaction: IDBTransaction): Promise<void> {
  return new Promise((resolve, reject) => {
    transaction.oncomplete = () => resolve();
    transaction.onerror = () => reject(transaction.error ?? new Error('IndexedDB transaction failed'));
    transaction.onabort = () => reject(transaction.error ?? new Error('IndexedDB transaction aborted'));
  });
}

/** Opens the device's fix queue (one object store, keys counting up: key order is arrival order). */
export async function openIdbFixStore(factory: IDBFactory = indexedDB): Promise<FixStore> {
  const request = factory.open(DATABASE, 1);
  request.onupgradeneeded = () => request.result.createObjectStore(STORE, { autoIncrement: true });
  return new IdbFixStore(await done(request));
}

class IdbFixStore implements FixStore {
  constructor(private readonly db: IDBDatabase) {}

  async add(fix: Fix): Promise<void> {
    const transaction = this.db.transaction(STORE, 'readwrite');
    transaction.objectStore(STORE).add(fix);
    await committed(transaction);
  }

  count(): Promise<number> {
    return done(this.db.transaction(STORE).objectStore(STORE).count());
  }

  async oldest(limit: number): Promise<StoredFix[]> {
    const store = this.db.transaction(STORE).objectStore(STORE);
    const [keys, fixes] = await Promise.all([done(store.getAllKeys(null, limit)), done(store.getAll(null, limit))]);
    return keys.map((key, i) => ({ key: Number(key), fix: fixes[i] as Fix }));
  }

  async remove(keys: readonly number[]): Promise<void> {
    if (keys.length === 0) return;
    const transaction = this.db.transaction(STORE, 'readwrite');
    const store = transaction.objectStore(STORE);
    for (const key of keys) store.delete(key);
    await committed(transaction);
  }
}
