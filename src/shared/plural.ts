/** A count with its noun, singular for one: "1 transaction", "3 transactions", "0 minutes". */
export function countWords(count: number, singular: string, plural = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : plural}`;
}
