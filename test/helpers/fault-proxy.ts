/**
 * A TCP proxy (node:net) in front of a real Leadlight server that injects
 * one fault per connection from a queue, to test what a client does when
 * the network fails it: `drop-after-request` forwards a whole HTTP request
 * to the server, then cuts the client's connection without an answer (the
 * server still runs the request: the client cannot know whether it did);
 * `answer-503` answers 503 without reaching the server. Once the queue is
 * empty, connections are piped through untouched.
 */
import net from 'node:net';

export type Fault = 'drop-after-request' | 'answer-503';

export interface FaultProxy {
  /** http://127.0.0.1:PORT */
  url: string;
  /** faults still queued */
  readonly pending: number;
  /** what happened, in order: a fault's name, or 'pass' for a connection piped through */
  readonly log: string[];
  /** resolves when every request forwarded by a fault has been answered by the server */
  settled(): Promise<void>;
  close(): Promise<void>;
}

/** Index just past the end of the first complete HTTP/1.1 request in `buffer` (Content-Length bodies), or -1. */
function requestEnd(buffer: Buffer): number {
  const headersEnd = buffer.indexOf('\r\n\r\n');
  if (headersEnd < 0) return -1;
  const head = buffer.subarray(0, headersEnd).toString('latin1');
  const length = Number(/\r\ncontent-length:\s*(\d+)/i.exec(head)?.[1] ?? 0);
  const end = headersEnd + 4 + length;
  return buffer.length >= end ? end : -1;
}

export async function startFaultProxy(target: string, faults: Fault[]): Promise<FaultProxy> {
  const { hostname, port } = new URL(target);
  const queue = [...faults];
  const log: string[] = [];
  const sockets = new Set<net.Socket>();
  const waiting: Promise<void>[] = [];
  const track = (socket: net.Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    return socket;
  };

  const server = net.createServer((client) => {
    track(client);
    const fault = queue.shift();
    if (fault === undefined) {
      log.push('pass');
      const upstream = track(net.connect(Number(port), hostname));
      client.pipe(upstream);
      upstream.pipe(client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
      return;
    }
    let buffered = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      const end = requestEnd(buffered);
      if (end < 0) return;
      client.off('data', onData);
      const request = buffered.subarray(0, end);
      log.push(fault);
      if (fault === 'answer-503') {
        const body = JSON.stringify({ error: 'service_unavailable', message: 'injected by the test proxy' });
        client.end(
          `HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
        );
        return;
      }
      // drop-after-request: the server gets the whole request, the client never gets the answer
      const upstream = track(net.connect(Number(port), hostname));
      waiting.push(
        new Promise<void>((resolve) => {
          upstream.once('data', () => {
            upstream.destroy();
            resolve();
          });
          upstream.once('close', () => resolve());
        }),
      );
      upstream.write(request, () => client.destroy());
    };
    client.on('data', onData);
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${address.port}`,
    get pending() {
      return queue.length;
    },
    log,
    async settled() {
      await Promise.all(waiting);
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
