/**
 * A count with its noun ("1 transaction", "2 transactions"): one helper for every count a person
 * reads, so that no screen, file or message says "1 transactions".
 */
export function nounFor(count: number, singular: string, plural = `${singular}s`): string {
  return count === 1 ? singular : plural;
}

export function countOf(count: number, singular: string, plural = `${singular}s`): string {
  return `${count.toLocaleString('en-NG')} ${nounFor(count, singular, plural)}`;
}
