/**
 * A TCP proxy in front of PostgreSQL or Redis, so a test can take the service
 * away from the application (refuse connections and cut the open ones), or
 * make its path silent (stall: bytes stop flowing, nothing is closed or
 * reset, as when a network drops packets), and bring it back, without
 * touching the machine's shared server.
 */
import net from 'node:net';

export interface TcpProxy {
  port: number;
  /** refuse new connections and cut every open one */
  cut(): Promise<void>;
  /** accept connections again on the same port */
  restore(): Promise<void>;
  /**
   * stop forwarding on every open connection without closing it; with
   * `newConnections`, connections opened from now on are accepted but
   * silent too, otherwise they are forwarded normally
   */
  stall(options?: { newConnections?: boolean }): void;
  /** forward again on every stalled connection (what was sent meanwhile arrives) */
  heal(): void;
  /** connections accepted so far */
  accepted(): number;
  close(): Promise<void>;
}

interface Pair {
  client: net.Socket;
  upstream: net.Socket | undefined;
  stalled: boolean;
}

export async function startTcpProxy(targetHost: string, targetPort: number): Promise<TcpProxy> {
  const sockets = new Set<net.Socket>();
  const pairs = new Set<Pair>();
  let stallNew = false;
  let accepted = 0;
  const track = (socket: net.Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
  };
  const forward = (pair: Pair) => {
    if (pair.upstream === undefined) {
      const upstream = net.connect(targetPort, targetHost);
      track(upstream);
      pair.upstream = upstream;
      pair.client.on('close', () => upstream.destroy());
      upstream.on('close', () => pair.client.destroy());
    }
    pair.client.pipe(pair.upstream);
    pair.upstream.pipe(pair.client);
    pair.client.resume();
    pair.upstream.resume();
  };
  const server = net.createServer((client) => {
    accepted += 1;
    track(client);
    const pair: Pair = { client, upstream: undefined, stalled: stallNew };
    pairs.add(pair);
    client.on('close', () => pairs.delete(pair));
    if (stallNew) client.pause();
    else forward(pair);
  });
  const listen = (port: number) =>
    new Promise<number>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve((server.address() as net.AddressInfo).port);
      });
    });
  const stop = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      if (!server.listening) resolve();
      else server.close(() => resolve());
    });
  const port = await listen(0);
  return {
    port,
    cut: stop,
    restore: async () => {
      if (!server.listening) await listen(port);
    },
    stall(options = {}) {
      stallNew = options.newConnections === true;
      for (const pair of pairs) {
        if (pair.stalled) continue;
        pair.stalled = true;
        pair.client.unpipe();
        pair.upstream?.unpipe();
        pair.client.pause();
        pair.upstream?.pause();
      }
    },
    heal() {
      stallNew = false;
      for (const pair of pairs) {
        if (!pair.stalled) continue;
        pair.stalled = false;
        forward(pair);
      }
    },
    accepted: () => accepted,
    close: stop,
  };
}

/** host and port of a URL such as postgres://user@host:5432/db or redis://host:6379 */
export function hostPort(url: string, defaultPort: number): { host: string; port: number } {
  const parsed = new URL(url);
  return { host: parsed.hostname, port: parsed.port === '' ? defaultPort : Number(parsed.port) };
}

/** `url` with its host and port replaced by the proxy's */
export function throughProxy(url: string, proxy: TcpProxy): string {
  const parsed = new URL(url);
  parsed.hostname = '127.0.0.1';
  parsed.port = String(proxy.port);
  return parsed.toString();
}
