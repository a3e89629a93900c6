const PALETTE = ['#4f6bed', '#16a394', '#f59f3a', '#d9485f', '#8e5bd8', '#3aa0d9'];

export function colorOf(index: number): string {
  return PALETTE[index % PALETTE.length];
}
