// Gzipped traces (recognised by their magic bytes) are inflated here with the browser's
// DecompressionStream; any other Blob goes to openTrace as it is, which streams it
// straight into the engine's memory.
const GZIP = [0x1f, 0x8b];

export async function isGzip(blob) {
  const head = new Uint8Array(await blob.slice(0, 2).arrayBuffer());
  return head.length === 2 && head[0] === GZIP[0] && head[1] === GZIP[1];
}

// The inflated bytes of a gzipped Blob, reporting the compressed bytes read.
export async function inflateBlob(blob, onProgress) {
  const total = blob.size;
  let done = 0;
  let last = 0;
  const report = (force) => {
    const now = Date.now();
    if (force || now - last > 50) {
      last = now;
      onProgress({ bytesDone: done, bytesTotal: total });
    }
  };
  const counted = blob.stream().pipeThrough(
    new TransformStream({
      transform(chunk, controller) {
        done += chunk.length;
        report(false);
        controller.enqueue(chunk);
      },
    }),
  );
  const chunks = [];
  let size = 0;
  const reader = counted.pipeThrough(new DecompressionStream('gzip')).getReader();
  try {
    for (;;) {
      const { value, done: end } = await reader.read();
      if (end) break;
      chunks.push(value);
      size += value.length;
    }
  } catch (e) {
    throw new Error(`cannot decompress the gzip stream: ${e.message || e}`);
  }
  report(true);
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}
