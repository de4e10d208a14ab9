/** Runtime display (docs/reference.md section 4): under 1 hour in minutes, otherwise hours with 1 decimal. */
export function formatRuntime(hours: number | null | undefined): string {
  if (hours === null || hours === undefined || !Number.isFinite(hours) || hours < 0) return '0m';
  if (hours < 1) return `${Math.round(hours * 60)}m`;
  return `${hours.toFixed(1)}h`;
}
