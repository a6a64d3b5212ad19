/**
 * Everything a request body or query string must pass before a route sees it
 * (CONTRACT C3.8, C3.9): JSON and JSON Merge Patch bodies only, in UTF-8; an
 * empty body is {}; the body is an object whose text both stores can hold and
 * whose objects nest at most 32 levels; query parameters are not repeated and
 * integers are written as plain digits.
 */
import fp from 'fastify-plugin';
import type { FastifyRequest } from 'fastify';
import secureJson from 'secure-json-parse';
import { describeJsonProblem, findFieldProblem, isStorableText } from '../../schemas/text-guards.js';
import { HttpError, invalidBody, invalidRequest, unsupportedMediaType } from '../errors.js';

export const JSON_MEDIA_TYPE = 'application/json';
export const MERGE_PATCH_MEDIA_TYPE = 'application/merge-patch+json';
export const PATCH_MEDIA_TYPES = [JSON_MEDIA_TYPE, MERGE_PATCH_MEDIA_TYPE];

const NOT_AN_INTEGER = 'not-an-integer';

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });


function charsetIsUtf8(contentType: string | undefined): boolean {
  const charset = /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(contentType ?? '')?.[1]?.toLowerCase();
  return charset === undefined || charset === 'utf-8' || charset === 'utf8';
}

function parseBody(request: FastifyRequest, raw: Buffer, mergePatch: boolean): Record<string, unknown> {
  if ((mergePatch && request.method !== 'PATCH') || !charsetIsUtf8(request.headers['content-type'])) {
    throw unsupportedMediaType(request.method);
  }
  const encoding = request.headers['content-encoding'];
  if (encoding !== undefined && encoding.trim().toLowerCase() !== 'identity') {
    throw new HttpError('unsupported_media_type', `Content-Encoding ${encoding} is not supported; send the body uncompressed`, {
      accepted_encoding: 'identity',
    });
  }
  if (raw.length === 0) return {};
  if (raw[0] === 0xef && raw[1] === 0xbb && raw[2] === 0xbf) {
    throw invalidBody('request body must not start with a byte order mark (RFC 8259)');
  }
  let text: string;
  try {
    text = utf8.decode(raw);
  } catch {
    throw invalidBody('request body is not valid UTF-8');
  }
  let value: unknown;
  try {
    value = secureJson.parse(text, null, { protoAction: 'error', constructorAction: 'error' });
  } catch (error) {
    const forbidden = error instanceof SyntaxError && /prototype/i.test(error.message);
    throw invalidBody(
      forbidden ? 'request body uses the reserved keys __proto__ or constructor.prototype' : 'request body is not valid JSON',
    );
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw invalidBody('request body must be a JSON object');
  }
  const problems: Record<string, string> = {};
  for (const [field, fieldValue] of Object.entries(value)) {
    const problem = isStorableText(field) ? findFieldProblem(fieldValue) : 'text';
    if (problem !== null) problems[isStorableText(field) ? field : JSON.stringify(field)] = describeJsonProblem(problem);
  }
  if (Object.keys(problems).length > 0) throw invalidRequest('fields', problems);
  request.mergePatch = mergePatch;
  return value as Record<string, unknown>;
}

function integerParameters(request: FastifyRequest): Set<string> {
  const schema = request.routeOptions.schema?.querystring as
    | { properties?: Record<string, { type?: unknown }> }
    | undefined;
  const names = new Set<string>();
  for (const [name, property] of Object.entries(schema?.properties ?? {})) {
    if (property.type === 'integer') names.add(name);
  }
  return names;
}

function checkQuery(request: FastifyRequest): void {
  const query = request.query as Record<string, unknown> | undefined;
  if (query === undefined || query === null) return;
  const problems: Record<string, string> = {};
  let integers: Set<string> | undefined;
  for (const [name, value] of Object.entries(query)) {
    if (Array.isArray(value)) {
      problems[name] = 'must not be repeated';
    } else if (typeof value === 'string') {
      if (!isStorableText(value) || !isStorableText(name)) {
        problems[isStorableText(name) ? name : JSON.stringify(name)] = describeJsonProblem('text');
        continue;
      }
      integers ??= integerParameters(request);
      // Schema validation coerces text to numbers leniently ("0x10", " 5");
      // anything but plain digits is replaced by text it is sure to reject,
      // so that it is reported together with every other bad parameter.
      if (integers.has(name) && !/^-?\d+$/.test(value)) query[name] = NOT_AN_INTEGER;
    }
  }
  if (Object.keys(problems).length > 0) throw invalidRequest('parameters', problems);
}

export const requestGuards = fp(
  async (app) => {
    app.decorateRequest('mergePatch', false);
    app.removeAllContentTypeParsers();
    for (const [mediaType, mergePatch] of [
      [JSON_MEDIA_TYPE, false],
      [MERGE_PATCH_MEDIA_TYPE, true],
    ] as const) {
      app.addContentTypeParser(mediaType, { parseAs: 'buffer' }, (request, raw, done) => {
        try {
          done(null, parseBody(request, raw as Buffer, mergePatch));
        } catch (error) {
          done(error as Error, undefined);
        }
      });
    }
    app.addHook('preValidation', (request, _reply, done) => {
      try {
        checkQuery(request);
      } catch (error) {
        return done(error as Error);
      }
      if (request.body === undefined && (request.method === 'POST' || request.method === 'PATCH')) {
        request.body = {};
      }
      done();
    });
  },
  { name: 'request-guards' },
);
