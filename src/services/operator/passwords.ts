/**
 * Passwords of dashboard accounts (CONTRACT C7.2): argon2id through
 * @node-rs/argon2 (memory-hard, computed on libuv's thread pool so the event
 * loop keeps serving, stored as a self-describing PHC string so its cost can
 * be raised later), with its default cost (19 MiB, 2 passes: OWASP's
 * recommendation). A fixed stand-in hash is verified when an account has no
 * password, so an unknown email costs the same time as a wrong password.
 */
import { randomBytes } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';
import { InvalidRequestError } from '../errors.js';
import { isStorableText } from '../../schemas/text-guards.js';

export const MIN_PASSWORD_LENGTH = 10;
export const MAX_PASSWORD_LENGTH = 256;

let standIn: Promise<string> | undefined;

/** A hash nobody knows the password of, made once per process. */
function standInHash(): Promise<string> {
  standIn ??= hash(randomBytes(32).toString('base64url'));
  return standIn;
}

export function checkPassword(password: string): void {
  if (password.length < MIN_PASSWORD_LENGTH || password.length > MAX_PASSWORD_LENGTH || !isStorableText(password)) {
    throw new InvalidRequestError(`password must be ${MIN_PASSWORD_LENGTH} to ${MAX_PASSWORD_LENGTH} characters`, {
      fields: { password: `must be ${MIN_PASSWORD_LENGTH} to ${MAX_PASSWORD_LENGTH} characters` },
    });
  }
}

export function hashPassword(password: string): Promise<string> {
  checkPassword(password);
  return hash(password);
}

/** Whether `password` is the one `stored` was made from; with no stored hash, false after the same work. */
export async function passwordMatches(stored: string | undefined, password: string): Promise<boolean> {
  const target = stored ?? (await standInHash());
  let matches = false;
  try {
    matches = await verify(target, password);
  } catch {
    matches = false;
  }
  return matches && stored !== undefined;
}

/** A password for an account made by the operator (the demo admin's): 20 random URL-safe characters. */
export function generatePassword(): string {
  return randomBytes(15).toString('base64url');
}
