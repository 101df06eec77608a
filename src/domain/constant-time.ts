/**
 * True when two strings are equal, in a time that depends only on their lengths, not on where
 * they differ. Cheaper than hashing both and calling crypto.timingSafeEqual on every request,
 * and it allocates nothing; like most such comparisons, it does not hide the lengths.
 */
export function constantTimeEqual(given: string, expected: string): boolean {
  let difference = given.length ^ expected.length;
  for (let index = 0; index < expected.length; index++) {
    // Past the end of `given`, charCodeAt is NaN, which `| 0` turns into 0: the loop never exits early.
    difference |= (given.charCodeAt(index) | 0) ^ expected.charCodeAt(index);
  }
  return difference === 0;
}
