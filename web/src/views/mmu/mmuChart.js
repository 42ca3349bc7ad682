// Draws the MMU curve: window length on a log axis (x), utilization 0..1 (y).
import { formatDuration } from '../../model/format.js';
import { canvasTheme } from '../../render/theme.js';
import { fitCanvas } from '../../render/canvas.js';

const PAD = { left: 60, right: 12, top: 10, bottom: 40 };

export function chartGeometry(width, height, xMin, xMax) {
  const lx0 = Math.log10(xMin);
  const lx1 = Math.log10(Math.max(xMax, xMin * 10));
  const w = width - PAD.left - PAD.right;
  const h = height - PAD.top - PAD.bottom;
  return {
    x: (win) => PAD.left + ((Math.log10(win) - lx0) / (lx1 - lx0)) * w,
    y: (u) => PAD.top + (1 - u) * h,
    windowAt: (px) => 10 ** (lx0 + ((px - PAD.left) / w) * (lx1 - lx0)),
    lx0, lx1, w, h,
  };
}

export function drawMmu(canvas, curve, marker) {
  const { ctx, width, height } = fitCanvas(canvas);
  const T = canvasTheme();
  ctx.fillStyle = T.bg;
  ctx.fillRect(0, 0, width, height);
  const g = chartGeometry(width, height, curve.xMin, curve.xMax);
  ctx.font = '11px system-ui, sans-serif';
  ctx.strokeStyle = T.grid;
  ctx.fillStyle = T.muted;
  ctx.lineWidth = 1;
  ctx.textAlign = 'right';
  ctx.textBaseline = 'middle';
  for (let u = 0; u <= 1.0001; u += 0.25) {
    ctx.beginPath();
    ctx.moveTo(PAD.left, g.y(u));
    ctx.lineTo(width - PAD.right, g.y(u));
    ctx.stroke();
    ctx.fillText(`${Math.round(u * 100)}%`, PAD.left - 4, g.y(u));
  }
  ctx.textAlign = 'center';
  ctx.textBaseline = 'top';
  for (let d = Math.ceil(g.lx0); d <= Math.floor(g.lx1); d++) {
    const px = g.x(10 ** d);
    ctx.beginPath();
    ctx.moveTo(px, PAD.top);
    ctx.lineTo(px, height - PAD.bottom);
    ctx.stroke();
    ctx.fillText(formatDuration(10 ** d), px, height - PAD.bottom + 4);
  }
  // Axis titles.
  ctx.fillStyle = T.fg;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'bottom';
  ctx.fillText('Window length (log scale)', PAD.left + g.w / 2, height - 2);
  ctx.save();
  ctx.translate(12, PAD.top + g.h / 2);
  ctx.rotate(-Math.PI / 2);
  ctx.textBaseline = 'middle';
  ctx.fillText('Minimum mutator utilization', 0, 0);
  ctx.restore();
  ctx.strokeStyle = '#1565c0';
  ctx.lineWidth = 2;
  ctx.beginPath();
  for (let i = 0; i < curve.window.length; i++) {
    const px = g.x(curve.window[i]);
    const py = g.y(curve.mmu[i]);
    if (i === 0) ctx.moveTo(px, py);
    else ctx.lineTo(px, py);
  }
  ctx.stroke();
  ctx.fillStyle = 'rgba(21, 101, 192, 0.08)';
  ctx.lineTo(g.x(curve.window[curve.window.length - 1]), g.y(0));
  ctx.lineTo(g.x(curve.window[0]), g.y(0));
  ctx.closePath();
  ctx.fill();
  if (marker) {
    ctx.strokeStyle = '#d84315';
    ctx.lineWidth = 1;
    ctx.setLineDash([4, 3]);
    ctx.beginPath();
    ctx.moveTo(g.x(marker), PAD.top);
    ctx.lineTo(g.x(marker), height - PAD.bottom);
    ctx.stroke();
    ctx.setLineDash([]);
  }
  return g;
}
