/**
 * The recent deliveries of one webhook endpoint (CONTRACT C8.5), newest
 * first, as Stripe's and Svix's dashboards show them: the event, whether it
 * was delivered, is pending a retry or was given up, the last response code
 * (or the error), how long the last attempt took, how many attempts, and
 * when. While a delivery is pending the table refreshes itself.
 */
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api, query, type Page } from '../api';
import { Pager } from '../components/pager';
import { Empty, QueryView } from '../components/states';
import { Time } from '../components/time';
import type { WebhookDelivery } from '../types';

const PAGE_SIZE = 10;
const PENDING_REFRESH_MS = 2_000;

export const deliveriesKey = (endpointId: string) => ['webhooks', endpointId, 'deliveries'];

function Response({ delivery }: { delivery: WebhookDelivery }) {
  if (delivery.last_response_code !== null) {
    const ok = delivery.last_response_code >= 200 && delivery.last_response_code < 300;
    return <span className={`mono ${ok ? '' : 'problem'}`}>{delivery.last_response_code}</span>;
  }
  if (delivery.last_error !== null) return <span className="problem">{delivery.last_error}</span>;
  return <span className="muted">—</span>;
}

function When({ delivery }: { delivery: WebhookDelivery }) {
  return (
    <>
      <Time value={delivery.created_at} />
      {delivery.status === 'pending' && delivery.next_attempt_at !== null && delivery.attempts > 0 && (
        <div className="hint field-hint">
          next try <Time value={delivery.next_attempt_at} />
        </div>
      )}
    </>
  );
}

export function Deliveries({ endpointId }: { endpointId: string }) {
  const [offset, setOffset] = useState(0);
  const deliveries = useQuery({
    queryKey: [...deliveriesKey(endpointId), offset],
    queryFn: () => api<Page<WebhookDelivery>>(`/webhooks/${endpointId}/deliveries${query({ limit: PAGE_SIZE, offset })}`),
    refetchInterval: (current) => (current.state.data?.data.some((delivery) => delivery.status === 'pending') ? PENDING_REFRESH_MS : false),
  });
  return (
    <QueryView query={deliveries} loading="Loading deliveries…">
      {(page) =>
        page.pagination.total === 0 ? (
          <Empty>No deliveries yet. Events this endpoint subscribes to, and test events, show here.</Empty>
        ) : (
          <>
            <div className="table-wrap">
              <table>
                <caption className="visually-hidden">Recent deliveries</caption>
                <thead>
                  <tr>
                    <th scope="col">Event</th>
                    <th scope="col">Status</th>
                    <th scope="col">Response</th>
                    <th scope="col" className="numeric">
                      Duration
                    </th>
                    <th scope="col" className="numeric">
                      Attempts
                    </th>
                    <th scope="col">Time</th>
                  </tr>
                </thead>
                <tbody>
                  {page.data.map((delivery) => (
                    <tr key={delivery.id} data-delivery-id={delivery.id}>
                      <td className="mono">{delivery.event_type}</td>
                      <td>
                        <span className={`badge ${delivery.status}`}>{delivery.status}</span>
                      </td>
                      <td>
                        <Response delivery={delivery} />
                      </td>
                      <td className="numeric">{delivery.last_duration_ms === null ? <span className="muted">—</span> : `${delivery.last_duration_ms} ms`}</td>
                      <td className="numeric">{delivery.attempts}</td>
                      <td>
                        <When delivery={delivery} />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            {page.pagination.total > PAGE_SIZE && (
              <Pager offset={offset} limit={PAGE_SIZE} total={page.pagination.total} onChange={setOffset} label="Pages of deliveries" />
            )}
          </>
        )
      }
    </QueryView>
  );
}
