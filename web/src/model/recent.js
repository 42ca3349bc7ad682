// The last opened file, kept in IndexedDB so that reloading a deep link reopens it.
// Nothing leaves the machine: this is the browser's own storage for this origin. A file
// over the limit is not copied there: only its name and size are kept, so that a reload
// can say why it did not reopen it.
const DB = 'gotrace';
const STORE = 'recent';
// What is kept whole at most (window.gotraceKeepBytes sets it in tests).
const limit = () => window.gotraceKeepBytes ?? 512 * 1024 * 1024;

function db() {
  return new Promise((resolve, reject) => {
    const req = indexedDB.open(DB, 1);
    req.onupgradeneeded = () => req.result.createObjectStore(STORE);
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

export async function rememberFile(blob, name) {
  const record = blob.size > limit() ? { name, size: blob.size, keptBytes: limit() } : { blob, name };
  try {
    const d = await db();
    await new Promise((resolve, reject) => {
      const tx = d.transaction(STORE, 'readwrite');
      tx.objectStore(STORE).put(record, 'last');
      tx.oncomplete = resolve;
      tx.onerror = () => reject(tx.error);
    });
    d.close();
  } catch {
    // Private windows and full disks: reopening after a reload is a convenience.
  }
}

/** The last file, kept, was opened whole (from parts): a reload opens it whole again. */
export async function rememberOpenedWhole(blob, name) {
  try {
    const d = await db();
    await new Promise((resolve, reject) => {
      const tx = d.transaction(STORE, 'readwrite');
      const store = tx.objectStore(STORE);
      const req = store.get('last');
      req.onsuccess = () => {
        const r = req.result;
        if (r?.blob && r.name === name && r.blob.size === blob.size) store.put({ ...r, whole: true }, 'last');
      };
      tx.oncomplete = resolve;
      tx.onerror = () => reject(tx.error);
    });
    d.close();
  } catch {
    // As rememberFile.
  }
}

/** The last file: { blob, name, whole? }, or { name, size, keptBytes } if it was too large to keep; null if none. */
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
