/**
 * The activity entry of an identified visitor's event (CONTRACT C5.6):
 * page → `page_view` "Viewed <title or path>", track → `event` <name>,
 * conversion → `conversion` <name>, identify → `identify` "Identified as
 * <email>"; `who` is the identity's name, else its email; `source` "web";
 * `created_at` the event's time.
 */
import type { NewActivity } from '../../repositories/tenant/activity.repository.js';
import type { LoggedEvent } from '../../repositories/tenant/events.repository.js';
import { newId } from '../ids.js';

export interface ActivityIdentity {
  id: string;
  name: string | null;
  email: string | null;
}

const TYPES: Record<LoggedEvent['type'], string> = { page: 'page_view', track: 'event', conversion: 'conversion', identify: 'identify' };

function describe(event: LoggedEvent, identity: ActivityIdentity): string {
  switch (event.type) {
    case 'page': {
      const title = event.title?.trim();
      return `Viewed ${title !== undefined && title !== '' ? title : (event.path ?? event.url ?? '/')}`;
    }
    case 'identify': {
      const email = event.data?.email;
      return `Identified as ${typeof email === 'string' ? email : (identity.email ?? 'an unknown email')}`;
    }
    default:
      return event.name ?? event.type;
  }
}

export function activityEntry(event: LoggedEvent, identity: ActivityIdentity): NewActivity {
  return {
    id: newId(),
    identity_id: identity.id,
    type: TYPES[event.type],
    who: identity.name ?? identity.email,
    what: describe(event, identity),
    source: 'web',
    created_at: event.occurred_at,
  };
}
