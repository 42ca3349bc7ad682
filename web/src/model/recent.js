// The last opened file, kept in IndexedDB so that reloading a deep link reopens it.
// Nothing leaves the machine: this is the browser's own storage for this origin.
const DB = 'gotrace';
const STORE = 'recent';
const LIMIT = 512 * 1024 * 1024;

function db() {
  return new Promise((resolve, reject) => {
    const req = indexedDB.open(DB, 1);
    req.onupgradeneeded = () => req.result.createObjectStore(STORE);
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

export async function rememberFile(blob, name) {
  if (blob.size > LIMIT) return;
  try {
    const d = await db();
    await new Promise((resolve, reject) => {
      const tx = d.transaction(STORE, 'readwrite');
      tx.objectStore(STORE).put({ blob, name }, 'last');
      tx.oncomplete = resolve;
      tx.onerror = () => reject(tx.error);
    });
    d.close();
  } catch {
    // Private windows and full disks: reopening after a reload is a convenience.
  }
}

export async function recallFile() {
  try {
    const d = await db();
    const r = await new Promise((resolve, reject) => {
      const req = d.transaction(STORE, 'readonly').objectStore(STORE).get('last');
      req.onsuccess = () => resolve(req.result ?? null);
      req.onerror = () => reject(req.error);
    });
    d.close();
    return r;
  } catch {
    return null;
  }
}
