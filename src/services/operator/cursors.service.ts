/**
 * List cursors (CONTRACT C8.3): opaque, tamper-evident positions in a list.
 * A cursor is the keyset of the last item a page showed (its sort value and
 * id), base64url JSON, followed by an HMAC-SHA256 over that keyset AND the
 * workspace, the endpoint (route and path parameters) and the filters it was
 * made for. A cursor altered, or presented for another workspace, endpoint or
 * filter set, does not verify. The signing key is the installation's
 * `cursor` secret in server_secrets (made by migration 0006), so every
 * process that shares the database accepts the cursors of the others, and
 * they stay valid across restarts.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Store } from '../../repositories/index.js';
import type { Keyset } from '../../repositories/page.js';
import { now } from '../../schemas/instants.js';

const SECRET_NAME = 'cursor';
const MAC_BYTES = 16;

/** What a cursor is bound to. */
export interface CursorBinding {
  workspaceId: string;
  /** the route and its path parameters */
  endpoint: string;
  /** the filters, canonical text */
  filters: string;
}

export class CursorsService {
  #key: Promise<Buffer> | undefined;

  constructor(private readonly store: Store) {}

  private key(): Promise<Buffer> {
    this.#key ??= (async () => {
      const secrets = this.store.operator.serverSecrets;
      let value = await secrets.find(SECRET_NAME);
      if (value === undefined) {
        await secrets.insertIfAbsent(SECRET_NAME, randomBytes(32).toString('base64url'), now());
        value = await secrets.find(SECRET_NAME);
      }
      if (value === undefined) throw new Error('the cursor secret cannot be stored');
      return Buffer.from(value, 'base64url');
    })().catch((error: unknown) => {
      this.#key = undefined;
      throw error;
    });
    return this.#key;
  }

  private mac(key: Buffer, body: string, binding: CursorBinding): Buffer {
    return createHmac('sha256', key)
      .update(`${binding.workspaceId}\n${binding.endpoint}\n${binding.filters}\n${body}`)
      .digest()
      .subarray(0, MAC_BYTES);
  }

  async encode(position: Keyset, binding: CursorBinding): Promise<string> {
    const body = Buffer.from(JSON.stringify([position.at, position.id])).toString('base64url');
    return `${body}.${this.mac(await this.key(), body, binding).toString('base64url')}`;
  }

  /** The position a cursor names, or undefined when it is malformed, altered or made for another binding. */
  async decode(cursor: string, binding: CursorBinding): Promise<Keyset | undefined> {
    const [body, signature, extra] = cursor.split('.');
    if (body === undefined || signature === undefined || extra !== undefined || body === '') return undefined;
    const expected = this.mac(await this.key(), body, binding);
    const given = Buffer.from(signature, 'base64url');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
    try {
      const parsed: unknown = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
      if (!Array.isArray(parsed) || parsed.length !== 2 || typeof parsed[0] !== 'string' || typeof parsed[1] !== 'string') return undefined;
      return { at: parsed[0], id: parsed[1] };
    } catch {
      return undefined;
    }
  }
}
