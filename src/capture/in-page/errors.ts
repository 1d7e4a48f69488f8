/** Error-like values: detection, name and one-line headline, read without running page code. */
import { cut } from './limits';
import { fieldValue } from './reflect';

/** An Error of this realm, or any object with a string `message` and a string `stack` or `name`. */
export function isErrorLike(o: object): boolean {
  if (typeof Error !== 'undefined' && o instanceof Error) return true;
  if (typeof fieldValue(o, 'message') !== 'string') return false;
  return typeof fieldValue(o, 'stack') === 'string' || typeof fieldValue(o, 'name') === 'string';
}

/** The `name` (cut to 200 chars), or "Error" when it is missing or empty. */
export function errorName(o: object): string {
  const n = fieldValue(o, 'name');
  return typeof n === 'string' && n ? cut(n, 200) : 'Error';
}

/** `TypeError: message` (the message cut to maxLength), or just the name for an empty message. */
export function errorHeadline(o: object, maxLength: number): string {
  const name = errorName(o);
  const m = fieldValue(o, 'message');
  return typeof m === 'string' && m ? name + ': ' + cut(m, maxLength) : name;
}
