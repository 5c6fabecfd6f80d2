// @ts-check
// Numbers, sizes and durations as the page writes them ("1,234", "1.2 MB", "1 min 05 s",
// "23rd", "12.5 %"), and its lists of facts (a text's statistics, a token's facts): one way
// each, for app/view.js and its panels.

export const integer = new Intl.NumberFormat('en');

/** "1.2 MB", "15.0 GB" */
export function formatBytes(bytes) {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 ** 2) return `${(bytes / 1024).toFixed(1)} KB`;
  if (bytes < 1024 ** 3) return `${(bytes / 1024 ** 2).toFixed(1)} MB`;
  return `${(bytes / 1024 ** 3).toFixed(1)} GB`;
}

/** "1 min 05 s" */
export function formatSeconds(seconds) {
  if (!Number.isFinite(seconds)) return '—';
  const s = Math.max(0, Math.round(seconds));
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`;
}

/** "1st", "2nd", "23rd", "111th" */
export function ordinal(n) {
  const suffix = new Intl.PluralRules('en', { type: 'ordinal' }).select(n);
  return `${integer.format(n)}${{ one: 'st', two: 'nd', few: 'rd' }[suffix] ?? 'th'}`;
}

/** `clause` as the start of a sentence: its first letter capitalised (the core's messages start lower case). */
export function capitalised(clause) {
  return clause ? `${clause[0].toUpperCase()}${clause.slice(1)}` : clause;
}

export function percent(ratio, digits = 1) {
  return `${(100 * ratio).toFixed(digits)} %`;
}

/**
 * `<dt>`/`<dd>` pairs for a description list, each value marked `data-{key}="{term}"` so
 * tests find it by its term. Text only: values may come from files.
 * @param {[string, string][]} rows @param {string} key
 */
export function termsAndValues(rows, key) {
  return rows.flatMap(([term, value]) => {
    const dt = document.createElement('dt');
    dt.textContent = term;
    const dd = document.createElement('dd');
    dd.textContent = value;
    dd.dataset[key] = term;
    return [dt, dd];
  });
}
