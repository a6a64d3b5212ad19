/**
 * For a command that has printed its whole answer and must still exit
 * non-zero (doctor, when a check fails): run() exits with the code and adds
 * nothing, so that --json output stays exactly one document.
 */
export class AnsweredFailure extends Error {
  override name = 'AnsweredFailure';

  constructor(readonly exitCode = 1) {
    super('the command answered with a failure');
  }
}
