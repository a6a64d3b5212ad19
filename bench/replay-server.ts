/**
 * L0 of the benchmark: a bare node:http server that answers every request
 * with the status line, headers and body of one response captured from L2,
 * byte for byte (the ceiling of HTTP with that payload on this machine).
 * It reads request bodies to their end, as the service does.
 *
 *   taskset -c 0 node --import tsx bench/replay-server.ts
 *
 * Over IPC: {type: 'load', file} makes it replay CAPTURE file (a `Capture`,
 * see lib/load.ts) from then on, and answers {type: 'load'}. Sends
 * {type: 'ready', url} once listening. One process serves every scenario of
 * a store and limiter, loading each scenario's capture in turn.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

interface Capture {
  status: number;
  statusMessage: string;
  rawHeaders: string[];
  bodyBase64: string;
}

let capture: Capture = { status: 503, statusMessage: 'Service Unavailable', rawHeaders: ['content-length', '0'], bodyBase64: '' };
let body = Buffer.alloc(0);

const server = http.createServer((request, response) => {
  response.sendDate = false;
  request.on('end', () => {
    // a flat [name, value, name, value...] array is written exactly as given
    response.writeHead(capture.status, capture.statusMessage, capture.rawHeaders);
    response.end(body);
  });
  request.resume();
});
server.keepAliveTimeout = 72_000;

process.on('message', (message: { type: string; file: string }) => {
  if (message.type !== 'load') return;
  capture = JSON.parse(fs.readFileSync(message.file, 'utf8')) as Capture;
  body = Buffer.from(capture.bodyBase64, 'base64');
  process.send?.({ type: 'load' });
});
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  process.send?.({ type: 'ready', url: `http://127.0.0.1:${port}` });
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
process.on('disconnect', () => process.exit(0));
