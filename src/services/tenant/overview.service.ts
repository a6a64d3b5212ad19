/**
 * Whether a workspace has started tracking (C9.8): the overview opens with
 * its first run until the workspace's first event arrives. The overview's
 * figures, days and breakdowns are the traffic service's
 * (traffic-overview.service.ts).
 */
import type { WorkspaceStore } from '../../repositories/index.js';

/** Whether tracking has started (C9.8): the first-run page waits for this to turn true. */
export interface TrackingStatus {
  received_events: boolean;
}

export class OverviewService {
  constructor(private readonly store: WorkspaceStore) {}

  /** One indexed probe (a visitor row is written with a workspace's first accepted event), cheap enough to poll. */
  async trackingStatus(): Promise<TrackingStatus> {
    return { received_events: await this.store.repos.visitors.any() };
  }
}
