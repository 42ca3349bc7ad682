// The timeline's label column width, kept in the browser for the next visit.
import { LABEL_WIDTH, MIN_LABEL_WIDTH } from '../../render/draw.js';

// The label column's width, kept for the next visit.
const LABEL_WIDTH_KEY = 'gotrace.timeline.labelWidth';
export function savedLabelWidth() {
  try {
    const w = Number(localStorage.getItem(LABEL_WIDTH_KEY));
    return w >= MIN_LABEL_WIDTH ? w : LABEL_WIDTH;
  } catch {
    return LABEL_WIDTH;
  }
}
export function saveLabelWidth(w) {
  try {
    localStorage.setItem(LABEL_WIDTH_KEY, String(Math.round(w)));
  } catch {
    // storage refused: the width lasts for this page
  }
}
