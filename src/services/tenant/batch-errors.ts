/**
 * Batches are all or nothing (CONTRACT C11.4): the first operation that a
 * single write would refuse stops the batch, its transaction rolls back, and
 * the answer is a 400 naming that operation in `details.fields`, with the
 * reason the single write would give (an unknown id, a reference outside the
 * workspace, a bad field).
 */
import { InvalidRequestError, ServiceError } from '../errors.js';

/** Where an operation's parts are named: its id and its body's fields. */
export interface OperationPaths {
  /** e.g. `operations[3].id` */
  id: string;
  /** e.g. `operations[3].body` (fields follow with a dot) */
  body: string;
}

/** Runs one operation; a rule it breaks becomes the batch's 400, naming the operation. */
export async function inOperation<T>(paths: OperationPaths, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (!(error instanceof ServiceError)) throw error;
    throw new InvalidRequestError(`${error.code === 'not_found' ? paths.id : paths.body}: ${error.message}`, {
      fields: operationFields(paths, error),
    });
  }
}

function operationFields(paths: OperationPaths, error: ServiceError): Record<string, string> {
  if (error.code === 'not_found') return { [paths.id]: error.message };
  const field = error.details?.field;
  if (typeof field === 'string') return { [`${paths.body}.${field}`]: error.message };
  const fields = error.details?.fields;
  if (fields !== null && typeof fields === 'object') {
    return Object.fromEntries(Object.entries(fields).map(([name, reason]) => [`${paths.body}.${name}`, String(reason)]));
  }
  return { [paths.body]: error.message };
}
