/**
 * Exit codes of the commands that judge an implementation (`verify`, and the commands that share
 * its report). CI reads them to tell drift from an outage, so they are part of the contract.
 */

/** Every check ran and passed (skips are listed in the report but do not fail the run). */
export const EXIT_PASS = 0;

/** The implementation answered, and at least one answer differs from what the description says. */
export const EXIT_DRIFT = 1;

/** The command line is wrong: an unknown flag, a missing `--base-url`, an unreadable `--ca`. */
export const EXIT_USAGE = 2;

/**
 * Nothing could be judged: the target is unreachable, its certificate is not trusted, the
 * credentials are refused, or the base URL is not the API. Said once, with what to fix.
 */
export const EXIT_COULD_NOT_RUN = 3;

/** One of the exit codes above. */
export type ExitCode =
  | typeof EXIT_PASS
  | typeof EXIT_DRIFT
  | typeof EXIT_USAGE
  | typeof EXIT_COULD_NOT_RUN;
