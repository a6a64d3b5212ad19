/**
 * A pino logger whose lines are kept in memory, for tests that check what
 * the service logs.
 */
import { Writable } from 'node:stream';
import { pino, type Level } from 'pino';

export function capturingLogger(level: Level): { logger: pino.Logger; lines: string[] } {
  const lines: string[] = [];
  const logger = pino(
    { level },
    new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    }),
  );
  return { logger, lines };
}
