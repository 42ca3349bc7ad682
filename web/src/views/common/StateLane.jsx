import { useEffect, useRef } from 'preact/hooks';
import { formatDuration } from '../../model/format.js';
import { canvasTheme } from '../../render/theme.js';
import { fitCanvas } from '../../render/canvas.js';

// A goroutine's own timeline lane: its states over [t0, t1] from the timeline index,
// drawn on a canvas at the width it is shown at.
export const STATE_COLORS = {
  running: '#2e7d32',
  runnable: '#f9a825',
  waiting: '#cfd8dc',
  syscall: '#6a1b9a',
  active: '#90caf9',
};
const STATES = ['running', 'runnable', 'waiting', 'syscall', 'active'];

export function drawLane(canvas, rects, t0, t1) {
  const { ctx, width: w, height: h } = fitCanvas(canvas);
  ctx.fillStyle = canvasTheme().axis;
  ctx.fillRect(0, 0, w, h);
  if (!rects) return;
  const x = (t) => ((t - t0) / (t1 - t0)) * w;
  for (let i = 0; i < rects.start.length; i++) {
    const x0 = x(rects.start[i]);
    const x1 = Math.max(x0 + 1, x(rects.end[i]));
    ctx.fillStyle = STATE_COLORS[STATES[rects.state[i]]] ?? '#999';
    ctx.fillRect(x0, 2, x1 - x0, h - 4);
  }
}

export function StateLane({ trace, goroutine, t0, t1, onPick, legend = true }) {
  const ref = useRef(null);
  const rectsRef = useRef(null);
  useEffect(() => {
    // Leaving the page abandons the request: the first one builds the timeline's index,
    // which no other view should wait behind once this one is gone.
    const abandon = new AbortController();
    const canvas = ref.current;
    const pixels = Math.max(100, Math.round(canvas.clientWidth || 800));
    drawLane(canvas, null, t0, t1);
    trace.callWithSignal(abandon.signal, 'timeline', { kind: 'goroutine', id: goroutine }, t0, t1, pixels).then(
      (rects) => {
        rectsRef.current = rects;
        drawLane(canvas, rects, t0, t1);
      },
      () => {},  // abandoned, or the trace closed: nothing to draw
    );
    return () => abandon.abort();
  }, [trace, goroutine, t0, t1]);
  const title = (e) => {
    const rects = rectsRef.current;
    if (!rects) return;
    const box = e.currentTarget.getBoundingClientRect();
    const t = t0 + ((e.clientX - box.left) / box.width) * (t1 - t0);
    for (let i = 0; i < rects.start.length; i++) {
      if (rects.start[i] <= t && t < rects.end[i]) {
        const label = rects.label[i] >= 0 ? ` (${rects.labels[rects.label[i]]})` : '';
        e.currentTarget.title = `${STATES[rects.state[i]]}${label}: ${formatDuration(rects.end[i] - rects.start[i])}${rects.count[i] > 1 ? `, ${rects.count[i]} slices` : ''}`;
        return;
      }
    }
    e.currentTarget.title = '';
  };
  return (
    <div class="gt-lane">
      <canvas
        ref={ref}
        data-testid="goroutine-lane"
        onMouseMove={title}
        onClick={(e) => {
          if (!onPick) return;
          const box = e.currentTarget.getBoundingClientRect();
          onPick(t0 + ((e.clientX - box.left) / box.width) * (t1 - t0));
        }}
      />
      {legend && <div class="gt-legend">
        {STATES.slice(0, 4).map((s) => <span key={s}><i style={{ background: STATE_COLORS[s] }} />{s}</span>)}
      </div>}
    </div>
  );
}
