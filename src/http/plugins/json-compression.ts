/**
 * Compresses the dashboard API's JSON answers (CONTRACT C9.9; issue 21 found
 * them sent uncompressed): Brotli when the request accepts it, else gzip,
 * for bodies of at least COMPRESSION_THRESHOLD bytes (below it the saving is
 * smaller than the work, and the answer fits one packet anyway). Only JSON
 * held whole in memory is touched: a streamed body (an export) and a
 * hijacked one (Live's server-sent events, which must reach the page as
 * each event is written) pass as they are, never buffered. Brotli runs at
 * quality 5 (answers are made per request: most of the gain of 11 at a small
 * part of its time), gzip at its default level, both off the event loop.
 */
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import fp from 'fastify-plugin';
import { acceptedEncodings } from '../accept-encoding.js';

export const COMPRESSION_THRESHOLD = 1024;
const BROTLI_QUALITY = 5;

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

function addVary(current: unknown): string {
  const values = String(current ?? '')
    .split(',')
    .map((value) => value.trim())
    .filter((value) => value !== '');
  return values.some((value) => value.toLowerCase() === 'accept-encoding' || value === '*') ? values.join(', ') : [...values, 'Accept-Encoding'].join(', ');
}

/** Registered in a scope (the /dashboard/api prefix), it compresses that scope's JSON answers. */
export const jsonCompression = fp(
  async (app) => {
    app.addHook('onSend', async (request, reply, payload) => {
      if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload;
      if (reply.hasHeader('content-encoding') || !/^application\/(?:[\w.+-]+\+)?json\b/i.test(String(reply.getHeader('content-type') ?? ''))) return payload;
      const body = typeof payload === 'string' ? Buffer.from(payload) : payload;
      if (body.length < COMPRESSION_THRESHOLD) return payload;
      reply.header('vary', addVary(reply.getHeader('vary')));
      const accepted = acceptedEncodings(request.headers['accept-encoding']);
      const encoding = accepted.has('br') ? 'br' : accepted.has('gzip') ? 'gzip' : undefined;
      if (encoding === undefined) return payload;
      const compressed =
        encoding === 'br'
          ? await brotli(body, {
              params: {
                [zlib.constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
                [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
                [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
              },
            })
          : await gzip(body);
      reply.header('content-encoding', encoding);
      reply.removeHeader('content-length');
      return compressed;
    });
  },
  { name: 'leadlight-json-compression' },
);
