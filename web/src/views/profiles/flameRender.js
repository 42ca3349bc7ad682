// Draws a flame graph on a canvas: root on top, callees below, one row per depth.
// Frames narrower than half a pixel are skipped; names are drawn with fillText only.
import { inSubtree } from './flameLayout.js';
import { canvasTheme } from '../../render/theme.js';
import { fitCanvas } from '../../render/canvas.js';

export const ROW = 18;

function color(name) {
  let h = 0;
  for (let i = 0; i < name.length; i++) h = (h * 31 + name.charCodeAt(i)) >>> 0;
  const runtime = name.startsWith('runtime.') || name.startsWith('internal/') || name.startsWith('syscall.');
  const hue = runtime ? 20 + (h % 30) : 190 + (h % 60);
  return `hsl(${hue}, ${55 + (h % 20)}%, ${62 + (h % 12)}%)`;
}

/**
 * focus: the node that fills the width (0: the root). Returns the hit boxes drawn,
 * as {node, x, y, w} for picking.
 */
export function drawFlame(canvas, flame, x, focus, highlight) {
  const { ctx, width, height } = fitCanvas(canvas);
  ctx.fillStyle = canvasTheme().bg;
  ctx.fillRect(0, 0, width, height);
  ctx.font = '11px system-ui, sans-serif';
  ctx.textBaseline = 'middle';
  const total = flame.value[focus] || 1;
  // Find ignores case, as the search box does.
  const find = highlight ? highlight.toLowerCase() : '';
  const x0 = x[focus];
  const d0 = flame.depth[focus];
  const scale = width / total;
  const boxes = [];
  const n = flame.parent.length;
  for (let i = 0; i < n; i++) {
    const depth = flame.depth[i];
    let px;
    let pw;
    let row;
    if (depth < d0) {
      // Ancestors of the focus: full width, so the path back up stays visible.
      if (!inSubtree(flame, focus, i)) continue;
      px = 0; pw = width; row = depth;
    } else {
      if (flame.value[i] * scale < 0.5) continue;
      if (x[i] < x0 || x[i] >= x0 + total) continue;
      if (!inSubtree(flame, i, focus)) continue;
      px = (x[i] - x0) * scale;
      pw = flame.value[i] * scale;
      row = depth;
    }
    const y = row * ROW;
    if (y > height) continue;
    const name = i === 0 ? 'all' : flame.names[flame.name[i]];
    ctx.fillStyle = depth < d0 ? '#e0e0e0' : find && name.toLowerCase().includes(find) ? '#ff7043' : i === 0 ? '#bdbdbd' : color(name);
    ctx.fillRect(px, y, Math.max(0.5, pw - 0.5), ROW - 1);
    if (pw > 30) {
      ctx.save();
      ctx.beginPath();
      ctx.rect(px, y, pw - 2, ROW);
      ctx.clip();
      ctx.fillStyle = '#1a1a1a';
      ctx.fillText(name, px + 3, y + ROW / 2);
      ctx.restore();
    }
    boxes.push({ node: i, x: px, y, w: pw });
  }
  return boxes;
}

export function pick(boxes, mx, my) {
  for (let k = boxes.length - 1; k >= 0; k--) {
    const b = boxes[k];
    if (mx >= b.x && mx < b.x + b.w && my >= b.y && my < b.y + ROW) return b.node;
  }
  return -1;
}
