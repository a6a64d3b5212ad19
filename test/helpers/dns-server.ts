/**
 * A small DNS server on a loopback UDP port for tests (CONTRACT C6.6: tests
 * never ask the internet): it answers PTR questions from a table the test
 * fills (address → names), with NXDOMAIN for addresses it does not know,
 * and can stay silent (a resolver that never answers) or answer late.
 * Answers are encoded with dns-packet (MIT). It counts the questions it is
 * asked, per address.
 */
import dgram from 'node:dgram';
import { once } from 'node:events';
import * as packet from 'dns-packet';

export interface DnsServer {
  /** `127.0.0.1:port`, for DNS_SERVERS */
  server: string;
  /** PTR names by address; an address mapped to 'silent' gets no answer at all */
  answers: Map<string, string[] | 'silent'>;
  /** how many questions each address was asked */
  asked: Map<string, number>;
  /** answers wait this long (ms) */
  delayMs: number;
  close(): Promise<void>;
}

/** The address a reverse name (4.3.2.1.in-addr.arpa, or an ip6.arpa nibble name) is for. */
function addressOf(name: string): string | undefined {
  const lower = name.toLowerCase().replace(/\.$/, '');
  if (lower.endsWith('.in-addr.arpa')) return lower.slice(0, -'.in-addr.arpa'.length).split('.').reverse().join('.');
  if (lower.endsWith('.ip6.arpa')) {
    const nibbles = lower.slice(0, -'.ip6.arpa'.length).split('.').reverse().join('');
    return nibbles.match(/.{4}/g)?.map((group) => group.replace(/^0+(?=.)/, '')).join(':');
  }
  return undefined;
}

export async function startDnsServer(): Promise<DnsServer> {
  const socket = dgram.createSocket('udp4');
  const pending = new Set<NodeJS.Timeout>();
  let closed = false;
  const state: DnsServer = {
    server: '',
    answers: new Map(),
    asked: new Map(),
    delayMs: 0,
    close: async () => {
      closed = true;
      for (const timer of pending) clearTimeout(timer);
      socket.close();
      await once(socket, 'close');
    },
  };
  socket.on('message', (message, remote) => {
    let query: packet.Packet;
    try {
      query = packet.decode(message);
    } catch {
      return;
    }
    const question = query.questions?.[0];
    if (question === undefined) return;
    const address = addressOf(question.name);
    if (address !== undefined) state.asked.set(address, (state.asked.get(address) ?? 0) + 1);
    const names = address === undefined ? undefined : state.answers.get(address);
    if (names === 'silent') return;
    const response = packet.encode({
      id: query.id,
      type: 'response',
      flags: packet.RECURSION_DESIRED | packet.RECURSION_AVAILABLE | (names === undefined ? 3 : 0),
      questions: [question],
      answers: question.type === 'PTR' && names !== undefined ? names.map((data) => ({ type: 'PTR' as const, name: question.name, ttl: 300, data })) : [],
    });
    const send = () => {
      if (!closed) socket.send(response, remote.port, remote.address);
    };
    if (state.delayMs === 0) return send();
    const timer = setTimeout(() => {
      pending.delete(timer);
      send();
    }, state.delayMs);
    pending.add(timer);
  });
  socket.bind(0, '127.0.0.1');
  await once(socket, 'listening');
  state.server = `127.0.0.1:${socket.address().port}`;
  return state;
}
