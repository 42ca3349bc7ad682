// Whether a key pressed goes into a field the person types in: the app's keys (the
// timeline's W/A/S/D, "?" for help, "/" to search) then leave it alone. A checkbox, a
// button or a slider keeps them the app's: after a click on "Flows", W still zooms.
const TEXT_INPUTS = new Set(['text', 'search', 'number', 'email', 'url', 'password', 'tel', 'date', 'time', 'datetime-local', 'month', 'week']);

export function typingIn(target) {
  if (!target) return false;
  if (target.isContentEditable || target.tagName === 'TEXTAREA' || target.tagName === 'SELECT') return true;
  return target.tagName === 'INPUT' && TEXT_INPUTS.has(target.type);
}
