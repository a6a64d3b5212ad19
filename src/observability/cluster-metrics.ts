/**
 * /metrics under `serve --workers N` (node:cluster). The port is shared, so a
 * scrape reaches whichever worker the primary hands the connection to; that
 * worker asks the primary, the primary collects every worker's registries
 * with prom-client's AggregatorRegistry (counters and histograms summed,
 * gauges summed unless the metric says otherwise, e.g. event-loop delay is
 * averaged) and sends the text back. So every scrape sees the whole
 * cluster, as one process would be seen.
 *
 * The primary says it answers by setting LEADLIGHT_CLUSTER_METRICS in the
 * environment its workers inherit; a worker of another cluster manager
 * answers with its own metrics.
 */
import cluster from 'node:cluster';
import { AggregatorRegistry, type Registry } from 'prom-client';

const CLUSTER_FLAG = 'LEADLIGHT_CLUSTER_METRICS';
const REQUEST = 'leadlight:metrics-request';
const ANSWER = 'leadlight:metrics-answer';
/** longer than the primary's own wait for the workers (5 s in prom-client) */
const ANSWER_TIMEOUT_MS = 6_000;

interface Request {
  type: typeof REQUEST;
  id: number;
}

interface Answer {
  type: typeof ANSWER;
  id: number;
  text?: string;
  error?: string;
}

function isMessage<T extends { type: string }>(message: unknown, type: T['type']): message is T {
  return typeof message === 'object' && message !== null && (message as { type?: unknown }).type === type;
}

/** In the primary, before forking workers: answers their requests for the cluster's metrics. */
export function serveClusterMetrics(): void {
  const aggregator = new AggregatorRegistry();
  process.env[CLUSTER_FLAG] = '1';
  cluster.on('message', (worker, message: unknown) => {
    if (!isMessage<Request>(message, REQUEST)) return;
    const reply = (answer: Omit<Answer, 'type' | 'id'>) => {
      if (worker.isConnected()) worker.send({ type: ANSWER, id: message.id, ...answer } satisfies Answer);
    };
    aggregator.clusterMetrics().then(
      (text) => reply({ text }),
      (error: unknown) => reply({ error: error instanceof Error ? error.message : String(error) }),
    );
  });
}

/**
 * In a worker of serveClusterMetrics' primary: offers `registries` to the
 * primary's collection and returns how to ask for the cluster's metrics.
 * Elsewhere: undefined (the process answers with its own). A worker runs one
 * application, so the registries are set once per process.
 */
export function clusterScraper(registries: Registry[]): (() => Promise<string>) | undefined {
  const send = process.send?.bind(process);
  if (!cluster.isWorker || process.env[CLUSTER_FLAG] !== '1' || send === undefined) return undefined;
  AggregatorRegistry.setRegistries(registries);
  // Constructing one installs prom-client's listener that answers the primary.
  new AggregatorRegistry();
  let next = 0;
  const waiting = new Map<number, (answer: Answer) => void>();
  process.on('message', (message: unknown) => {
    if (isMessage<Answer>(message, ANSWER)) waiting.get(message.id)?.(message);
  });
  return () =>
    new Promise<string>((resolve, reject) => {
      const id = next++;
      const timer = setTimeout(() => settle({ type: ANSWER, id, error: 'the other workers did not answer in time' }), ANSWER_TIMEOUT_MS);
      const settle = (answer: Answer) => {
        clearTimeout(timer);
        waiting.delete(id);
        if (answer.text !== undefined) resolve(answer.text);
        else reject(new Error(`cluster metrics: ${answer.error ?? 'no answer'}`));
      };
      waiting.set(id, settle);
      send({ type: REQUEST, id } satisfies Request);
    });
}
