// A script's statements, split at the semicolons that end them (not those in strings,
// quoted names, comments or dollar-quoted text): the view runs them in order and shows
// the last one's rows, as a SQL prompt does.
export function splitStatements(text) {
  const out = [];
  let start = 0;
  let i = 0;
  const n = text.length;
  const skipTo = (close, from) => {
    const j = text.indexOf(close, from);
    return j < 0 ? n : j + close.length;
  };
  while (i < n) {
    const c = text[i];
    if (c === "'" || c === '"') {
      // A quote inside is written twice: '' or "".
      let j = i + 1;
      while (j < n && !(text[j] === c && text[j + 1] !== c)) j += text[j] === c ? 2 : 1;
      i = j + 1;
    } else if (c === '-' && text[i + 1] === '-') {
      i = skipTo('\n', i + 2);
    } else if (c === '/' && text[i + 1] === '*') {
      i = skipTo('*/', i + 2);
    } else if (c === '$') {
      const m = /^\$([A-Za-z_][A-Za-z0-9_]*)?\$/.exec(text.slice(i, i + 64));
      i = m ? skipTo(m[0], i + m[0].length) : i + 1;
    } else if (c === ';') {
      out.push(text.slice(start, i));
      i++;
      start = i;
    } else {
      i++;
    }
  }
  out.push(text.slice(start));
  const meaningful = (s) => s.replace(/--[^\n]*|\/\*[\s\S]*?\*\//g, '').trim() !== '';
  return out.filter(meaningful).map((s) => s.trim());
}
