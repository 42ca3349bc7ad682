// The keys and gestures of the app, shown on "?" (and closed by "?", Esc or a click).
import { useEffect, useState } from 'preact/hooks';
import { PanelHead } from './PanelHead.jsx';

const KEYS = [
  ['Anywhere', [
    ['?', 'show or hide this help'],
    ['/', 'search goroutines, tasks, regions, functions'],
  ]],
  ['Timeline', [
    ['W / S, wheel', 'zoom in / out (at the pointer)'],
    ['A / D, drag', 'pan left / right'],
    ['F or 0', 'fit the whole trace'],
    ['shift+wheel', 'scroll the lanes'],
    ['shift+drag, drag the ruler', 'select a range (its figures show on the right)'],
    ['click', 'details of a slice, a log or a CPU sample; a group\'s header folds or unfolds it'],
    ['drag the labels\' edge', 'widen the label column (hover a label to read it whole)'],
    ['Esc', 'clear the selection and the range'],
  ]],
];

const typing = (e) => e.target instanceof HTMLInputElement || e.target instanceof HTMLTextAreaElement;

export function KeyboardHelp() {
  const [open, setOpen] = useState(false);
  useEffect(() => {
    const key = (e) => {
      if (typing(e) || e.ctrlKey || e.metaKey || e.altKey) return;
      if (e.key === '?') {
        e.preventDefault();
        setOpen((o) => !o);
      } else if (e.key === 'Escape') setOpen(false);
    };
    window.addEventListener('keydown', key);
    return () => window.removeEventListener('keydown', key);
  }, []);
  if (!open) return null;
  return (
    <div class="help-overlay" data-testid="keyboard-help" onClick={() => setOpen(false)}>
      <div class="help-panel" role="dialog" aria-label="Keyboard help" onClick={(e) => e.stopPropagation()}>
        <PanelHead onClose={() => setOpen(false)}>Keys and gestures</PanelHead>
        {KEYS.map(([where, keys]) => (
          <section key={where}>
            <h4>{where}</h4>
            <table class="kv">
              <tbody>
                {keys.map(([k, what]) => (
                  <tr key={k}>
                    <th>
                      <kbd>{k}</kbd>
                    </th>
                    <td>{what}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </section>
        ))}
      </div>
    </div>
  );
}
