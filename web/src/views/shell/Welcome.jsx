export function Welcome({ onPick, onSample, loading }) {
  return (
    <div class="welcome">
      <h1>Go execution traces, in your browser</h1>
      <p>
        Drop a <code>trace.out</code> (or <code>.gz</code>) anywhere on this page, or choose one. It is read
        here, in WebAssembly: nothing is uploaded.
      </p>
      <p class="actions">
        <button type="button" class="primary" onClick={onPick} disabled={loading}>
          Choose a trace…
        </button>
        <button type="button" onClick={onSample} disabled={loading}>
          Open the sample
        </button>
      </p>
      <p class="hint">
        Traces from Go 1.5 to Go 1.27 (<code>go test -trace</code>, <code>runtime/trace</code>,{' '}
        <code>net/http/pprof</code>) and from the gotrace C++ tracer. Add <code>?url=ADDRESS</code> to this page's
        address to open a trace from a server.
      </p>
    </div>
  );
}
