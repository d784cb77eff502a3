/** Lays out rows as aligned columns: the first column left-aligned (names), the rest right-aligned (figures). */
export function formatTable(header: readonly string[], rows: readonly (readonly string[])[]): string[] {
  const all = [header, ...rows];
  const widths = header.map((_, column) => Math.max(...all.map((row) => [...(row[column] ?? '')].length)));
  const line = (row: readonly string[]) =>
    row
      .map((cell, column) => {
        const pad = ' '.repeat((widths[column] ?? 0) - [...cell].length);
        return column === 0 ? cell + pad : pad + cell;
      })
      .join('  ')
      .trimEnd();
  return [line(header), widths.map((width) => '-'.repeat(width)).join('  '), ...rows.map(line)];
}

/** "median [min–max]" with a fixed number of decimals. */
export function formatSpread(value: { median: number; min: number; max: number }, decimals = 0): string {
  const format = (n: number) =>
    n.toLocaleString('en-US', { minimumFractionDigits: decimals, maximumFractionDigits: decimals });
  return `${format(value.median)} [${format(value.min)}–${format(value.max)}]`;
}
