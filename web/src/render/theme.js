// The canvases' colours for the light and the dark scheme, following the system's
// (prefers-color-scheme), as the page's CSS does.
import { useEffect, useState } from 'preact/hooks';

export const LIGHT = {
  dark: false,
  bg: '#ffffff',
  fg: '#1d2129',
  label: '#4b5563',
  muted: '#6b7280',
  section: '#eef1f5',
  selected: '#eef3fc',
  marked: '#2563eb',  // the edge of the lane a link named
  separator: '#eef0f3',
  line: '#dfe3ea',
  tick: '#c5cad3',
  axis: '#f5f6f8',
  sticky: '#e8edf6',
  strong: '#111827',
  hover: 'rgba(0, 0, 0, 0.25)',
  outsidePart: 'rgba(100, 100, 120, 0.10)',
  grid: '#e0e0e0',
};

export const DARK = {
  dark: true,
  bg: '#16181d',
  fg: '#e6e8ec',
  label: '#b4bac4',
  muted: '#9aa3b2',
  section: '#23272f',
  selected: '#1e2a40',
  marked: '#60a5fa',
  separator: '#23262d',
  line: '#343943',
  tick: '#4b525e',
  axis: '#1d2026',
  sticky: '#262c38',
  strong: '#f3f4f6',
  hover: 'rgba(255, 255, 255, 0.35)',
  outsidePart: 'rgba(200, 200, 220, 0.08)',
  grid: '#2e333c',
};

const query = () => (typeof matchMedia === 'function' ? matchMedia('(prefers-color-scheme: dark)') : null);

export function canvasTheme() {
  return query()?.matches ? DARK : LIGHT;
}

/** The canvas theme, re-rendering the component when the system's scheme changes. */
export function useCanvasTheme() {
  const [theme, setTheme] = useState(canvasTheme);
  useEffect(() => {
    const q = query();
    if (!q) return undefined;
    const on = () => setTheme(canvasTheme());
    q.addEventListener('change', on);
    return () => q.removeEventListener('change', on);
  }, []);
  return theme;
}
