// The keys and gestures of the app, shown on "?" (and closed by "?", Esc or a click).
import { useEffect, useRef, useState } from 'preact/hooks';
import { PanelHead } from './PanelHead.jsx';
import { typingIn } from '../common/typing.js';

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

const OPEN_EVENT = 'gotrace-keyboard-help';

/** Opens the help (the timeline's "? keys"). */
export function openKeyboardHelp() {
  window.dispatchEvent(new Event(OPEN_EVENT));
}

export function KeyboardHelp() {
  const [open, setOpen] = useState(false);
  // Read by the key listener at once: a key pressed right after the help closes is the
  // views' (the listener outlives renders).
  const isOpen = useRef(false);
  const show = (o) => {
    isOpen.current = o;
    setOpen(o);
  };
  useEffect(() => {
    const key = (e) => {
      const plain = !e.ctrlKey && !e.metaKey && !e.altKey;
      if (isOpen.current) {
        // Open, the help is modal: no key reaches the views beneath it (the timeline's
        // W/A/S/D, its Esc that clears the selection, "/" that searches).
        e.stopPropagation();
        if (e.key === 'Escape' || (e.key === '?' && plain)) {
          e.preventDefault();
          show(false);
        }
      } else if (e.key === '?' && plain && !typingIn(e.target)) {
        e.preventDefault();
        show(true);
      }
    };
    const open = () => show(true);
    // In the capture phase, before the views' listeners.
    window.addEventListener('keydown', key, true);
    window.addEventListener(OPEN_EVENT, open);
    return () => {
      window.removeEventListener('keydown', key, true);
      window.removeEventListener(OPEN_EVENT, open);
    };
  }, []);
  if (!open) return null;
  return (
    <div class="help-overlay" data-testid="keyboard-help" onClick={() => show(false)}>
      <div class="help-panel" role="dialog" aria-label="Keyboard help" onClick={(e) => e.stopPropagation()}>
        <PanelHead onClose={() => show(false)}>Keys and gestures</PanelHead>
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
