// Figures: each one is printed as a JSON line the moment it is measured, and summed up in a table
// at the end with its budget. A benchmark measures; it never fails on a number.

export interface Figure {
  name: string;
  /** null when the figure could not be measured (then `note` says why). */
  value: number | null;
  unit: string;
  /** How many samples the value summarises, when it is a statistic. */
  n?: number;
  note?: string;
}

export interface Budget {
  /** The figure must be at most this (same unit as the figure). */
  max?: number;
  /** The figure must be at least this (a rate). */
  min?: number;
  /** Written in the table, e.g. "≤ 15 ms". */
  label: string;
}

/** Budgets of issue 5 ("this machine"); matched against figure names. */
const BUDGETS: { pattern: RegExp; budget: Budget }[] = [
  { pattern: /^bundle\.first\.js\.gzip$/, budget: { max: 120, label: '≤ 120 kB' } },
  { pattern: /^server\.list\..+\.p95$/, budget: { max: 15, label: '≤ 15 ms' } },
  { pattern: /^server\.view\..+\.p95$/, budget: { max: 250, label: '≤ 250 ms' } },
  { pattern: /^server\.rss\.(after|settled|peak)$/, budget: { max: 250, label: '≤ 250 MB' } },
  { pattern: /^server\.upload\.20mb\.(p50|max)$/, budget: { max: 1000, label: '≤ 1000 ms' } },
  {
    pattern: /^browser\.list\.first-rows\.(cold|warm)$/,
    budget: { max: 1000, label: '≤ 1000 ms' },
  },
  { pattern: /^browser\.view5000\.dom-rows\.(max|initial)$/, budget: { max: 199, label: '< 200' } },
  {
    pattern: /^browser\.view5000\.scroll\.longest-task$/,
    budget: { max: 50, label: '≤ 50 ms' },
  },
  {
    pattern: /^browser\.preview(16mb|LongHtml)\.click-to-paint$/,
    budget: { max: 1000, label: '≤ 1000 ms' },
  },
  { pattern: /^server\.ingest\.uploads-per-s$/, budget: { min: 500, label: '≥ 500 /s' } },
  {
    pattern: /^browser\.preview(16mb|LongHtml)\.longest-task$/,
    budget: { max: 100, label: '≤ 100 ms' },
  },
];

export function budgetOf(name: string): Budget | undefined {
  return BUDGETS.find((entry) => entry.pattern.test(name))?.budget;
}

/** Collects figures and prints each as one JSON line on stdout. */
export class Report {
  readonly figures: Figure[] = [];

  add(figure: Figure): void {
    const rounded: Figure = {
      ...figure,
      value: figure.value === null ? null : round(figure.value),
    };
    this.figures.push(rounded);
    process.stdout.write(`${JSON.stringify(rounded)}\n`);
  }

  /** A figure that could not be measured: value null and the reason. */
  unmeasurable(name: string, unit: string, reason: string): void {
    this.add({ name, value: null, unit, note: `not measurable: ${reason}` });
  }

  /** The closing table: figure, value, budget and whether it is within. */
  table(): string {
    const rows = this.figures.map((figure) => {
      const budget = budgetOf(figure.name);
      const value = figure.value === null ? '—' : `${formatNumber(figure.value)} ${figure.unit}`;
      let status = '';
      if (budget !== undefined) {
        if (figure.value === null) status = 'n/a';
        else if (budget.max !== undefined && figure.value > budget.max) status = 'OVER';
        else if (budget.min !== undefined && figure.value < budget.min) status = 'UNDER';
        else status = 'ok';
      }
      const detail = [figure.n === undefined ? '' : `n=${figure.n}`, figure.note ?? '']
        .filter((part) => part !== '')
        .join('; ');
      return [figure.name, value, budget?.label ?? '', status, detail];
    });
    const header = ['figure', 'value', 'budget', 'status', 'detail'];
    const widths = header.map((title, column) =>
      Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)),
    );
    const line = (cells: string[]) =>
      cells
        .map((cell, column) =>
          column === 1 ? cell.padStart(widths[column] ?? 0) : cell.padEnd(widths[column] ?? 0),
        )
        .join('  ')
        .trimEnd();
    return [line(header), line(widths.map((width) => '-'.repeat(width))), ...rows.map(line)].join(
      '\n',
    );
  }
}

function round(value: number): number {
  if (!Number.isFinite(value)) return value;
  if (Math.abs(value) >= 100) return Math.round(value * 10) / 10;
  return Math.round(value * 100) / 100;
}

function formatNumber(value: number): string {
  return Number.isInteger(value) ? String(value) : value.toFixed(Math.abs(value) >= 100 ? 1 : 2);
}

/** Nearest-rank percentile of the samples (p in 0..100). */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))] ?? Number.NaN;
}

/** Writes a progress line on stderr (stdout carries the figures only). */
export function log(message: string): void {
  process.stderr.write(`[bench] ${message}\n`);
}
