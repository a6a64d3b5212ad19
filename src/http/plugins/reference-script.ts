/**
 * Scalar's browser bundle for /docs (CONTRACT C9.9): 4.3 MB of JavaScript
 * that @scalar/fastify-api-reference holds as a string and would send
 * uncompressed, uncached, on every visit. Here it gets a content address
 * (the SHA-256 of the package file that carries it: a new version is a new
 * URL, so the URL can be cached for a year, immutable) and is compressed
 * once per process, on first use, into Brotli and gzip kept in memory
 * (about 1 MB and 1.3 MB; Brotli at quality 9: most of quality 11's gain at
 * a tenth of its time). Until Brotli is ready, a browser that also accepts
 * gzip gets gzip, which takes a tenth of a second.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import apiReference from '@scalar/fastify-api-reference';
import Fastify from 'fastify';
import { acceptedEncodings } from '../accept-encoding.js';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

export type Encoding = 'br' | 'gzip' | 'identity';

export interface EncodedScript {
  encoding: Encoding;
  body: Buffer;
}

let address: string | undefined;

/** The script's content address: 16 hex digits of the SHA-256 of the package file it comes from (read once per process). */
export function scriptAddress(): string {
  address ??= createHash('sha256')
    .update(fs.readFileSync(fileURLToPath(import.meta.resolve('@scalar/fastify-api-reference'))))
    .digest('hex')
    .slice(0, 16);
  return address;
}

/** The bundle as the package serves it, read through the package's own route on a throwaway instance. */
async function readBundle(): Promise<Buffer> {
  const probe = Fastify({ logger: false });
  try {
    await probe.register(apiReference, {
      routePrefix: '/probe',
      configuration: { content: { openapi: '3.1.0', info: { title: 'probe', version: '0' }, paths: {} } },
    });
    const answer = await probe.inject({ method: 'GET', url: '/probe/js/scalar.js' });
    if (answer.statusCode !== 200) throw new Error(`the Scalar bundle answered ${answer.statusCode}`);
    return answer.rawPayload;
  } finally {
    await probe.close();
  }
}

interface Bundle {
  identity: Buffer;
  br: Promise<Buffer>;
  gzip: Promise<Buffer>;
  /** the encodings done so far */
  done: Partial<Record<'br' | 'gzip', Buffer>>;
}

let loading: Promise<Bundle> | undefined;

function load(): Promise<Bundle> {
  loading ??= readBundle().then(
    (identity) => {
      const bundle: Bundle = {
        identity,
        br: brotli(identity, {
          params: {
            [zlib.constants.BROTLI_PARAM_QUALITY]: 9,
            [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
            [zlib.constants.BROTLI_PARAM_SIZE_HINT]: identity.length,
          },
        }),
        gzip: gzip(identity, { level: 9 }),
        done: {},
      };
      void bundle.br.then((body) => (bundle.done.br = body));
      void bundle.gzip.then((body) => (bundle.done.gzip = body));
      return bundle;
    },
    (error: unknown) => {
      // the next request tries again
      loading = undefined;
      throw error;
    },
  );
  return loading;
}

/** Starts reading and compressing the bundle (the page calls it, so the script is ready when asked for). */
export function prepareScript(): void {
  load().catch(() => undefined);
}

/** The script in the best encoding the client accepts that is ready, or the quickest to be. */
export async function encodedScript(acceptEncoding: string | undefined): Promise<EncodedScript> {
  const bundle = await load();
  const accepted = acceptedEncodings(acceptEncoding);
  if (accepted.has('br') && bundle.done.br !== undefined) return { encoding: 'br', body: bundle.done.br };
  if (accepted.has('gzip')) return { encoding: 'gzip', body: await bundle.gzip };
  if (accepted.has('br')) return { encoding: 'br', body: await bundle.br };
  return { encoding: 'identity', body: bundle.identity };
}
