/**
 * A count and its noun, agreeing in number (`1 unexpected browser error`, `2 unexpected browser errors`): every count
 * phrase of a report goes through it, so none reads "1 errors".
 */
export function count(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}
