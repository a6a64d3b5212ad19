/**
 * Passwords of dashboard accounts (CONTRACT C7.2): argon2id through
 * @node-rs/argon2 (memory-hard, computed on libuv's thread pool so the event
 * loop keeps serving, stored as a self-describing PHC string so its cost can
 * be raised later), at OWASP's recommended cost (19 MiB, 2 passes, one
 * lane). A sign-in always verifies exactly one hash of that cost: the
 * account's, or a stand-in made with the same parameters when the email is
 * unknown or has no password yet (C7.3), so the two take the same time.
 */
import { randomBytes } from 'node:crypto';
import { hash, verify, type Options } from '@node-rs/argon2';
import { InvalidRequestError } from '../errors.js';
import { isStorableText } from '../../schemas/text-guards.js';

export const MIN_PASSWORD_LENGTH = 10;
export const MAX_PASSWORD_LENGTH = 256;

/**
 * The cost of every hash made here, the stand-in's included; `algorithm` 2 is
 * argon2id (the package's enum is an ambient const enum, which isolated
 * modules cannot read).
 */
export const ARGON2_OPTIONS: Options = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 };

let standIn: Promise<string> | undefined;

/** A hash nobody knows the password of, with the cost of real ones; made once per process. */
export function standInHash(): Promise<string> {
  standIn ??= hash(randomBytes(32).toString('base64url'), ARGON2_OPTIONS);
  return standIn;
}

/** The parameters part of a PHC string (`$argon2id$v=19$m=19456,t=2,p=1`): what a verification's cost depends on. */
export function hashParameters(phc: string): string {
  return phc.split('$').slice(0, 4).join('$');
}

const verifications = new Map<string, number>();

/** How many hashes this process has verified, by their parameters: equal work on every sign-in path is checked with it. */
export function verificationCounts(): ReadonlyMap<string, number> {
  return new Map(verifications);
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
  return hash(password, ARGON2_OPTIONS);
}

/** Whether `password` is the one `stored` was made from; with no stored hash, false after the same work. */
export async function passwordMatches(stored: string | undefined, password: string): Promise<boolean> {
  const target = stored ?? (await standInHash());
  const parameters = hashParameters(target);
  verifications.set(parameters, (verifications.get(parameters) ?? 0) + 1);
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
